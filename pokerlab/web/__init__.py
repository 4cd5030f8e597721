"""The browser front end of pokerlab (``pokerlab serve``): a Starlette app over the dealer."""
