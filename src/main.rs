//! The `miauc` binary: a thin shell over [`miau::cli`].

fn main() -> std::process::ExitCode {
    miau::cli::main()
}
