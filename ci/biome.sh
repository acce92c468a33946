#!/bin/sh
# The pre-commit hook for the project's JavaScript (.pre-commit-config.yaml): Biome at the
# version package-lock.json pins, from node_modules (`npm ci` installs it), checks the files
# it is given. `biome check` lints them and fails on a file its formatter would change;
# biome.jsonc says which files are the project's and which rules apply. A warning fails too.
# To format in place: node_modules/.bin/biome format --write
BIOME=node_modules/.bin/biome
if [ ! -x "$BIOME" ]; then
    echo "Biome is not installed: run \`npm ci\` in the repository's root (it installs the" \
        "version package-lock.json pins; it needs Node.js and npm)." >&2
    exit 1
fi
exec "$BIOME" check --error-on-warnings --no-errors-on-unmatched "$@"
