"""The MCP server: the pipeline's answers served to coding agents (`graphiq-ci mcp`)."""
