"""The default Jinja2 templates (`*.md.j2`), shipped in the wheel as `graphiq_ci.templates`.

A repository overrides one with `templates:` in `.graphiq.yml`; see render/output.py."""
