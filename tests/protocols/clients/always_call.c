/* An ACPC client in C: always checks or calls, in heads-up limit Hold'em with reverse
 * blinds (position 1 acts first preflop, position 0 after the flop).
 *
 * With no arguments it speaks the protocol on stdin/stdout (as the arena connects
 * executable entrants); with HOST PORT it connects to a dealer, as ACPC clients do.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int my_turn(const char *line) {
    /* MATCHSTATE:<position>:<hand>:<betting>:<cards> */
    const char *p = line + strlen("MATCHSTATE:");
    int position = atoi(p);
    p = strchr(p, ':');
    if (!p) return 0;
    p = strchr(p + 1, ':');
    if (!p) return 0;
    const char *betting = p + 1;
    const char *end = strchr(betting, ':');
    if (!end) return 0;
    int round = 0;
    const char *current = betting;
    for (const char *q = betting; q < end; q++) {
        if (*q == '/') {
            round++;
            current = q + 1;
        }
    }
    int count = (int)(end - current);
    if (count > 0 && current[count - 1] == 'f') return 0;
    if (count >= 2 && current[count - 1] == 'c') return 0; /* called down: hand over */
    int first = round == 0 ? 1 : 0;
    return (first + count) % 2 == position;
}

int main(int argc, char **argv) {
    FILE *in = stdin, *out = stdout;
    if (argc == 3) {
        int sock = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in address;
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_port = htons((unsigned short)atoi(argv[2]));
        if (sock < 0 || inet_pton(AF_INET, argv[1], &address.sin_addr) != 1 ||
            connect(sock, (struct sockaddr *)&address, sizeof address) != 0) {
            perror("connect");
            return 1;
        }
        int one = 1;
        setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        in = fdopen(sock, "r");
        out = fdopen(dup(sock), "w");
    }
    char line[4096];
    fprintf(out, "VERSION:2.0.0\r\n");
    fflush(out);
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "MATCHSTATE:", 11) != 0 || !my_turn(line)) continue;
        fprintf(out, "%s:c\r\n", line);
        fflush(out);
    }
    return 0;
}
