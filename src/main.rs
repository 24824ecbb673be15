//! The hexlens web app. The browser front end over `hexlens-core` is built here;
//! until it lands, this binary only lists the decoders the core registers.

fn main() {
    for f in hexlens_core::formats() {
        println!("{}\t{}", f.name, f.description);
    }
}
