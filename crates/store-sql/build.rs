// `sqlx::migrate!` embeds the migrations at compile time; without this, a new migration
// file alone does not rebuild the crate and the binary runs without it.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
