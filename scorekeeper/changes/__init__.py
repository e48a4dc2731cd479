"""The application layer: every change a person makes, each a function in the players' words
that checks, stores, derives and commits (the only place but migrations that commits). Views and
the command line call it and turn its answer into a page, a redirect or JSON.

May import everything below the views."""
