//! `miauc import`: a pack model back to readable `.miau` source.
