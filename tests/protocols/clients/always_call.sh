#!/bin/sh
# An ACPC client in POSIX shell: always checks or calls, in heads-up limit Hold'em with
# reverse blinds (position 1 acts first preflop, position 0 after the flop).
# It speaks the protocol on stdin/stdout, as the arena connects executable entrants.
printf 'VERSION:2.0.0\r\n'
while IFS= read -r line; do
    line=${line%"$(printf '\r')"}
    case $line in MATCHSTATE:*) ;; *) continue ;; esac
    rest=${line#MATCHSTATE:}
    position=${rest%%:*}
    rest=${rest#*:}
    rest=${rest#*:}
    betting=${rest%%:*}
    current=${betting##*/}
    case $current in *f) continue ;; esac
    count=${#current}
    if [ "$count" -ge 2 ] && [ "${current%c}" != "$current" ]; then
        continue  # the last round was called down: the hand is over
    fi
    if [ "$current" = "$betting" ]; then first=1; else first=0; fi  # preflop: no '/' yet
    if [ $(((first + count) % 2)) -eq "$position" ]; then
        printf '%s:c\r\n' "$line"
    fi
done
