//! Entry point. In the browser it mounts the Yew app; natively (the workspace's
//! `cargo test` builds every member for the host) it lists the decoders.

#[cfg(target_arch = "wasm32")]
fn main() {
    hexlens_web::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!("hexlens-web is a browser app: run scripts/run.sh and open the printed URL.");
    for f in hexlens_core::formats::catalog() {
        println!("{}\t{}", f.name, f.description);
    }
}
