"""What only pages need: security headers (`security`), the static files and their versions
(`assets`), template helpers for money and dates (`display`), the SVG charts (`charts`) and
parts of a page drawn once while what they read of a game's state stays the same (`drawn`).

Imports nothing else of the package."""
