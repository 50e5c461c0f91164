//! The engine's local socket: a Unix domain socket, or a named pipe on Windows. One handle for
//! reading and a clone for writing, so that each direction runs on its own thread.

#[cfg(unix)]
pub use unix::Conn;
#[cfg(windows)]
pub use win::Conn;

#[cfg(unix)]
mod unix {
    use std::io::{self, Read, Write};
    use std::net::Shutdown;
    use std::os::unix::net::UnixStream;

    pub struct Conn(UnixStream);

    impl Conn {
        pub fn connect(path: &str) -> io::Result<Conn> {
            UnixStream::connect(path).map(Conn)
        }
        pub fn try_clone(&self) -> io::Result<Conn> {
            self.0.try_clone().map(Conn)
        }
        /// No more client bytes: the engine sees end of stream and closes its side.
        pub fn shutdown_write(&self) {
            let _ = self.0.shutdown(Shutdown::Write);
        }
        /// Both directions, so that the reading thread wakes up.
        pub fn close(&self) {
            let _ = self.0.shutdown(Shutdown::Both);
        }
        /// Named pipes cannot half-close; a Unix socket can.
        pub const HALF_CLOSE: bool = true;
    }

    impl Read for Conn {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.0.read(buf)
        }
    }

    impl Write for Conn {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
}

/// A named pipe opened for overlapped I/O: a pipe handle opened without FILE_FLAG_OVERLAPPED
/// serializes every operation on it, so a read waiting for the engine would block the
/// client's writes. Written against the Win32 API; cross-built on the Linux build machine
/// (`npm run build:native-shim -- --windows`) but run only on Windows.
#[cfg(windows)]
mod win {
    use std::ffi::c_void;
    use std::fs::{File, OpenOptions};
    use std::io::{self, Read, Write};
    use std::os::windows::fs::OpenOptionsExt;
    use std::os::windows::io::AsRawHandle;
    use std::sync::Arc;

    type Handle = *mut c_void;

    #[repr(C)]
    struct Overlapped {
        internal: usize,
        internal_high: usize,
        offset: u32,
        offset_high: u32,
        event: Handle,
    }

    #[link(name = "kernel32")]
    extern "system" {
        fn ReadFile(h: Handle, buf: *mut u8, n: u32, done: *mut u32, ov: *mut Overlapped) -> i32;
        fn WriteFile(h: Handle, buf: *const u8, n: u32, done: *mut u32, ov: *mut Overlapped) -> i32;
        fn GetOverlappedResult(h: Handle, ov: *mut Overlapped, done: *mut u32, wait: i32) -> i32;
        fn CreateEventW(attrs: *mut c_void, manual_reset: i32, initial: i32, name: *const u16) -> Handle;
        fn CloseHandle(h: Handle) -> i32;
        fn GetLastError() -> u32;
        fn CancelIoEx(h: Handle, ov: *mut Overlapped) -> i32;
    }

    const FILE_FLAG_OVERLAPPED: u32 = 0x4000_0000;
    const ERROR_IO_PENDING: u32 = 997;
    const ERROR_BROKEN_PIPE: u32 = 109;
    const ERROR_PIPE_NOT_CONNECTED: u32 = 233;

    pub struct Conn(Arc<File>);

    impl Conn {
        pub fn connect(path: &str) -> io::Result<Conn> {
            let f = OpenOptions::new().read(true).write(true).custom_flags(FILE_FLAG_OVERLAPPED).open(path)?;
            Ok(Conn(Arc::new(f)))
        }
        pub fn try_clone(&self) -> io::Result<Conn> {
            Ok(Conn(self.0.clone()))
        }
        pub fn shutdown_write(&self) {}
        pub fn close(&self) {
            // SAFETY: the handle stays open (the Arc holds it); this only cancels pending I/O.
            unsafe { CancelIoEx(self.0.as_raw_handle() as Handle, std::ptr::null_mut()) };
        }
        pub const HALF_CLOSE: bool = false;

        /// One overlapped operation, waited for on its own event.
        fn op(&self, f: impl FnOnce(Handle, *mut u32, *mut Overlapped) -> i32) -> io::Result<usize> {
            let h = self.0.as_raw_handle() as Handle;
            // SAFETY: the event and the OVERLAPPED live until GetOverlappedResult returns, which
            // waits for the operation to finish; the handle is kept open by the Arc.
            unsafe {
                let event = CreateEventW(std::ptr::null_mut(), 1, 0, std::ptr::null());
                if event.is_null() {
                    return Err(io::Error::last_os_error());
                }
                let mut ov = Overlapped { internal: 0, internal_high: 0, offset: 0, offset_high: 0, event };
                let mut done: u32 = 0;
                let mut ok = f(h, &mut done as *mut u32, &mut ov as *mut Overlapped);
                if ok == 0 && GetLastError() == ERROR_IO_PENDING {
                    ok = GetOverlappedResult(h, &mut ov, &mut done, 1);
                }
                let err = if ok == 0 { Some(GetLastError()) } else { None };
                CloseHandle(event);
                match err {
                    None => Ok(done as usize),
                    Some(ERROR_BROKEN_PIPE | ERROR_PIPE_NOT_CONNECTED) => Ok(0),
                    Some(code) => Err(io::Error::from_raw_os_error(code as i32)),
                }
            }
        }
    }

    impl Read for Conn {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(u32::MAX as usize) as u32;
            let p = buf.as_mut_ptr();
            self.op(|h, done, ov| unsafe { ReadFile(h, p, n, done, ov) })
        }
    }

    impl Write for Conn {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(u32::MAX as usize) as u32;
            let p = buf.as_ptr();
            match self.op(|h, done, ov| unsafe { WriteFile(h, p, n, done, ov) })? {
                0 if n > 0 => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
                k => Ok(k),
            }
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
}
