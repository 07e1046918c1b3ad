//! `flinch view` (issue 40): a live viewer in the browser. A local HTTP + WebSocket server (`server.rs`,
//! `session.rs`) serves the page (`assets/view/`, bundled at build time: three.js included, no CDN) and streams
//! the simulation that runs natively on its own thread at a fixed rate (`sim/`); the page hits, throws at, drags
//! and switches the characters through JSON control messages (`flinch::view_protocol`). See `docs/view.md`.

mod assets;
mod level_mesh;
mod server;
mod session;
mod setup;
mod shared;
mod sim;

use std::path::PathBuf;
use std::sync::Arc;

use crate::{CliError, ImportArgs};

/// Arguments of `flinch view`.
#[derive(clap::Args, Debug)]
pub struct ViewArgs {
    /// Clips to play (.bvh, .gltf, .glb, .urdf); the embedded CMU walk when none. The page can load any of them
    /// (by index: a client never names a path).
    clips: Vec<PathBuf>,
    /// Retarget the clips onto this character (.glb/.gltf rig; see docs/retarget.md).
    #[arg(long, value_name = "RIG")]
    onto: Option<PathBuf>,
    /// The level (.glb/.gltf; `sample` for the embedded training ground). Default: a floor fitted to the clip.
    #[arg(long, value_name = "LEVEL")]
    level: Option<PathBuf>,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8940)]
    port: u16,
    /// Address to listen on. Anything but 127.0.0.1 exposes the session to the network (a warning is printed).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser (xdg-open / open).
    #[arg(long)]
    open: bool,
    /// Simulation rate (Hz).
    #[arg(long, default_value_t = 120.0)]
    rate: f64,
    /// Start paused.
    #[arg(long)]
    paused: bool,
    #[command(flatten)]
    import: ImportArgs,
}

/// Runs the viewer until interrupted.
pub fn run(args: &ViewArgs) -> Result<(), CliError> {
    if !(args.rate.is_finite() && (10.0..=2000.0).contains(&args.rate)) {
        return Err(CliError::Input(format!(
            "--rate {}: expected 10 to 2000 Hz",
            args.rate
        )));
    }
    let setup = setup::Setup::load(args)?;
    let rigs = setup.rigs.iter().map(|r| Arc::clone(&r.glb)).collect();
    let shared = Arc::new(shared::Shared::new());
    let listener = std::net::TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| {
        CliError::Other(format!("cannot listen on {}:{}: {e}", args.host, args.port))
    })?;
    let port = listener
        .local_addr()
        .map_err(|e| CliError::Other(e.to_string()))?
        .port();
    let token = server::new_token();
    let loopback = args.host == "127.0.0.1" || args.host == "localhost";
    if !loopback {
        eprintln!(
            "warning: listening on {}: anyone who can reach this address and knows the URL's token can drive the \
             viewer",
            args.host
        );
    }
    let url_host = if loopback { "127.0.0.1" } else { &args.host };
    let url = format!("http://{url_host}:{port}/s/{token}/");
    let sim = sim::spawn(setup, Arc::clone(&shared), args.paused)?;
    println!("flinch view: {url}");
    println!("(Ctrl-C to stop)");
    if args.open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("warning: could not open a browser ({opener}: {e}); open {url}");
        }
    }
    let config = server::ServerConfig {
        token,
        port,
        extra_host: (!loopback).then(|| args.host.clone()),
        rigs,
    };
    let result = server::serve(listener, config, shared, sim.commands());
    drop(sim);
    result
}
