//! Rendering diagnostics for terminals (ariadne) and tools (JSON lines).
