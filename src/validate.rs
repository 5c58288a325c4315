//! Stage 2: pack validation, the game loader's contract, on the pack model.
