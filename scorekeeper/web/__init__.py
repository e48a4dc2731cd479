"""What only pages need: security headers (`security`), the static files and their versions
(`assets`), template helpers for money and dates (`display`) and the SVG charts (`charts`).

Imports nothing else of the package."""
