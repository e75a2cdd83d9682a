"""Word lists for teachers: presets, filters, the block list, and printable sheets."""
