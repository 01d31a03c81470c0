//! `nordlys-sandbox [--port P] [--seed N] [--state FILE]`: serves the simulated exchange on
//! 127.0.0.1 and prints one JSON line with its address, API keys and OAuth clients.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Debug, Parser)]
#[command(
    name = "nordlys-sandbox",
    version,
    about = "A simulated bitcoin exchange on 127.0.0.1, for trying Nordlys and for tests"
)]
struct Args {
    /// Port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Seed of the simulated world: the same seed gives the same world.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep the world in this file across restarts.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Lifetime of access tokens in seconds.
    #[arg(long)]
    token_ttl: Option<i64>,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let config = nordlys_sandbox::SandboxConfig {
        port: args.port,
        seed: args.seed,
        state_file: args.state,
        token_ttl_seconds: args.token_ttl,
    };
    let sandbox = match nordlys_sandbox::start(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("nordlys-sandbox: {e}");
            return ExitCode::FAILURE;
        }
    };
    let line = serde_json::to_string(&sandbox.info).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        return ExitCode::FAILURE;
    }
    drop(out);
    let _ = tokio::signal::ctrl_c().await;
    sandbox.shutdown().await;
    ExitCode::SUCCESS
}
