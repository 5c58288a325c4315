//! The canonical formatter shared by `miauc fmt` and the language server.
