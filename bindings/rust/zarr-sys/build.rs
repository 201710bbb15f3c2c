//! Tell rustc where libzarr is: the folder in LIBZARR_LIB_DIR, else the -L
//! folders `pkg-config --libs-only-L zarr` prints (the pkg-config program is
//! run directly: no build-dependency crates).
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=LIBZARR_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    match env::var("LIBZARR_LIB_DIR") {
        Ok(dir) if !dir.is_empty() => println!("cargo:rustc-link-search=native={}", dir),
        _ => {
            for dir in pkg_config_library_dirs() {
                println!("cargo:rustc-link-search=native={}", dir);
            }
        }
    }
    println!("cargo:rustc-link-lib=dylib=zarr");
}

fn pkg_config_library_dirs() -> Vec<String> {
    let output = Command::new("pkg-config").args(["--libs-only-L", "zarr"]).output();
    let output = match output {
        Ok(output) if output.status.success() => output,
        Ok(output) => panic!(
            "libzarr not found: set LIBZARR_LIB_DIR to the folder holding libzarr.so, or make \
             `pkg-config --libs zarr` work (PKG_CONFIG_PATH). pkg-config said: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ),
        Err(error) => panic!(
            "libzarr not found: set LIBZARR_LIB_DIR to the folder holding libzarr.so \
             (running pkg-config failed: {})",
            error
        ),
    };
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .filter_map(|flag| flag.strip_prefix("-L"))
        .map(str::to_owned)
        .collect()
}
