//! This process's stdin and stdout as the relay uses them: unbuffered, every byte out at once.

use std::io::{self, Read, Write};

/// One of this process's stdio descriptors, unbuffered: every relayed byte goes out at once
/// (Rust's Stdout would hold back a partial line). Never closed (ManuallyDrop).
#[cfg(unix)]
struct Fd(std::mem::ManuallyDrop<std::fs::File>);

#[cfg(unix)]
impl Fd {
    fn new(fd: i32) -> Fd {
        use std::os::fd::FromRawFd;
        // SAFETY: fds 0 and 1 are this process's stdio, and ManuallyDrop never closes them.
        Fd(std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) }))
    }
}

#[cfg(unix)]
impl Read for Fd {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

#[cfg(unix)]
impl Write for Fd {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(unix)]
pub(crate) fn std_streams() -> (impl Read, impl Write) {
    (Fd::new(0), Fd::new(1))
}

#[cfg(unix)]
pub(crate) fn stdout() -> impl Write {
    std_streams().1
}

#[cfg(windows)]
struct Flushing<W: Write>(W);
#[cfg(windows)]
impl<W: Write> Write for Flushing<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let n = self.0.write(b)?;
        self.0.flush()?;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
#[cfg(windows)]
pub(crate) fn stdout() -> impl Write {
    Flushing(io::stdout())
}
#[cfg(windows)]
pub(crate) fn std_streams() -> (impl Read, impl Write) {
    (io::stdin(), stdout())
}
