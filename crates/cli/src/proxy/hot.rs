//! Keeping the proxy hot between the messages of a busy session, while the machine has a
//! processor to spare.
//!
//! A message through the proxy costs two more thread wake-ups than a direct exchange
//! (the proxy's, in each direction). On a virtual machine whose idle processors halt
//! without polling (`guest_halt_poll_ns=0`), a wake-up sent to another processor takes
//! 25-35 us before the thread runs, against about 2 us on the waker's own processor: the
//! whole difference between a proxied call and a direct one (README, "Guard any
//! server"). So after each message a thread of the proxy does not sleep at once: for
//! [`WINDOW`] it checks for the next message without blocking, yielding the processor
//! between checks, and only then sleeps.
//!
//! Spinning takes a processor, which is only free when nothing else wants it. The
//! [`Gate`] lets the proxy spin only while, over the last [`PERIOD`], at least one whole
//! processor it may run on stood idle besides what the proxy itself used; it samples the kernel's
//! accounting (`/proc/stat`, `/proc/self/stat`) at most once per period, on a thread
//! that is about to wait anyway. A machine whose processors are busy, or one without
//! that accounting (other systems than Linux), never sees the proxy spin, and an idle
//! proxy sleeps: nothing here runs between messages once [`WINDOW`] is over.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a thread that handled a message waits for the next one without sleeping.
pub(super) const WINDOW: Duration = Duration::from_micros(200);

/// How often the gate samples how busy the machine is, at most.
const PERIOD: Duration = Duration::from_millis(100);

/// Whether the machine has a processor to spare for spinning, sampled at most once per
/// [`PERIOD`]; shared by every thread of the proxy.
pub(super) struct Gate {
    open: AtomicBool,
    last: Mutex<Option<Sample>>,
}

/// The kernel's counts at one instant, in clock ticks.
#[derive(Clone, Copy)]
struct Sample {
    at: Instant,
    /// Idle time summed over every processor.
    idle: u64,
    /// This process's own time, user and system, every thread.
    own: u64,
}

impl Gate {
    /// A closed gate: it opens once two samples a period apart show a spare processor.
    pub(super) const fn new() -> Gate {
        Gate {
            open: AtomicBool::new(false),
            last: Mutex::new(None),
        }
    }

    /// Whether a thread may spin now; resamples when the last sample is a period old.
    pub(super) fn open(&self) -> bool {
        if let Ok(mut last) = self.last.try_lock() {
            let now = Instant::now();
            if last.is_none_or(|sample| now.duration_since(sample.at) >= PERIOD) {
                let sample = Sample::read(now);
                let spare = match (*last, sample) {
                    (Some(before), Some(after)) => after.spare_since(&before),
                    _ => 0.0,
                };
                self.open.store(spare >= 1.0, Ordering::Relaxed);
                *last = sample;
            }
        }
        self.open.load(Ordering::Relaxed)
    }

    /// Waits up to [`WINDOW`] for `ready` to say the next message is there, yielding the
    /// processor between checks, if the gate is open; returns at once otherwise.
    pub(super) fn spin(&self, mut ready: impl FnMut() -> bool) {
        if !self.open() {
            return;
        }
        let start = Instant::now();
        while !ready() && start.elapsed() < WINDOW {
            std::thread::yield_now();
        }
    }
}

impl Sample {
    #[cfg(target_os = "linux")]
    fn read(at: Instant) -> Option<Sample> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        // "cpuN user nice system idle iowait ...", summed over the processors this
        // process may run on: one it is kept off is no spare of its.
        let allowed = rustix::thread::sched_getaffinity(None).ok()?;
        let mut idle = 0;
        for line in stat.lines().filter(|line| line.starts_with("cpu")) {
            let mut fields = line.split_ascii_whitespace();
            let Some(Ok(cpu)) = fields.next().map(|name| name[3..].parse::<usize>()) else {
                continue;
            };
            if cpu < rustix::thread::CpuSet::MAX_CPU && allowed.is_set(cpu) {
                idle += fields.nth(3)?.parse::<u64>().ok()?;
            }
        }
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        // "pid (comm) state ...": utime and stime are the 12th and 13th fields after
        // the command, which may itself hold spaces and parentheses.
        let mut fields = own.rsplit_once(')')?.1.split_ascii_whitespace().skip(11);
        let user: u64 = fields.next()?.parse().ok()?;
        let system: u64 = fields.next()?.parse().ok()?;
        Some(Sample {
            at,
            idle,
            own: user + system,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn read(_: Instant) -> Option<Sample> {
        None
    }

    /// Processors idle or used by this process between `before` and this sample, on
    /// average: 1.0 is one whole processor.
    fn spare_since(&self, before: &Sample) -> f64 {
        let elapsed = self.at.duration_since(before.at).as_secs_f64();
        let ticks =
            (self.idle.saturating_sub(before.idle) + self.own.saturating_sub(before.own)) as f64;
        if elapsed <= 0.0 {
            return 0.0;
        }
        ticks / ticks_per_second() / elapsed
    }
}

/// The unit of `/proc/stat` and `/proc/self/stat` (`USER_HZ`).
fn ticks_per_second() -> f64 {
    #[cfg(target_os = "linux")]
    return rustix::param::clock_ticks_per_second() as f64;
    #[cfg(not(target_os = "linux"))]
    return 100.0;
}

/// The proxy's one gate.
pub(super) static GATE: Gate = Gate::new();

/// A reader that, before each read of its descriptor, spins through [`GATE`] until the
/// descriptor has something to read: under a `BufReader`, after each message read.
pub(super) struct Hot<R>(pub(super) R);

#[cfg(unix)]
impl<R: std::io::Read + std::os::fd::AsFd> std::io::Read for Hot<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        GATE.spin(|| readable(self.0.as_fd()));
        self.0.read(buffer)
    }
}

#[cfg(not(unix))]
impl<R: std::io::Read> std::io::Read for Hot<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buffer)
    }
}

/// For a current-thread runtime: after each `activity` notification, while [`GATE`] is
/// open and for [`WINDOW`], keeps the runtime checking its sockets without sleeping (each
/// turn yields the processor, then lets the runtime poll its sockets with a zero
/// timeout); then waits for the next notification. Runs until the runtime ends.
pub(super) async fn keep_hot(activity: std::sync::Arc<tokio::sync::Notify>) {
    loop {
        activity.notified().await;
        if !GATE.open() {
            continue;
        }
        let start = Instant::now();
        while start.elapsed() < WINDOW {
            std::thread::yield_now();
            tokio::task::yield_now().await;
        }
    }
}

/// Whether `fd` has something to read (or has reached its end) right now.
#[cfg(unix)]
fn readable(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    use rustix::event::{poll, PollFd, PollFlags};
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    matches!(poll(&mut fds, Some(&rustix::event::Timespec::default())), Ok(n) if n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spare_processors_count_idle_time_and_the_proxys_own() {
        let at = Instant::now();
        let before = Sample {
            at,
            idle: 1_000,
            own: 50,
        };
        let after = Sample {
            at: at + Duration::from_millis(100),
            idle: 1_012,
            own: 55,
        };
        // 12 idle ticks and 5 of its own in 0.1 s: 1.7 processors (at 100 ticks a second).
        let spare = after.spare_since(&before) * ticks_per_second() / 100.0;
        assert!((spare - 1.7).abs() < 1e-9, "{spare}");
        let busy = Sample {
            idle: 1_002,
            own: 52,
            ..after
        };
        assert!(busy.spare_since(&before) * ticks_per_second() / 100.0 < 1.0);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_kernel_counts_are_read() {
        let sample = Sample::read(Instant::now()).expect("/proc/stat and /proc/self/stat");
        assert!(sample.idle > 0);
    }
}
