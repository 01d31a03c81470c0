//! No core dump of this process, and no other process of the same user reading its memory
//! (`ptrace`, `/proc/<pid>/mem`): a crash file or a curious program would otherwise find the keys
//! and tokens it holds. Linux only, through rustix's safe `prctl` wrapper.

/// Marks the process not dumpable. Call before any secret is read.
#[cfg(target_os = "linux")]
pub fn from_now() -> std::io::Result<()> {
    use rustix::process::{DumpableBehavior, set_dumpable_behavior};
    set_dumpable_behavior(DumpableBehavior::NotDumpable).map_err(std::io::Error::from)
}

#[cfg(not(target_os = "linux"))]
pub fn from_now() -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
#[cfg(target_os = "linux")]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    #[test]
    fn the_process_is_no_longer_dumpable() {
        super::from_now().unwrap();
        assert_eq!(
            rustix::process::dumpable_behavior().unwrap(),
            rustix::process::DumpableBehavior::NotDumpable
        );
    }
}
