//! Generated schemas (real keywords, `$defs` with recursive references, dynamic
//! references, `unevaluated*`, costly patterns) and instances, checked against every
//! invariant of `mcp_jsonschema_fuzz::invariants::check_case`; and, under the MCP
//! profile (its step budget of 1,000,000), every compile and every validation ends
//! within [`PROFILE_BOUND`] of this thread's CPU time: the time the profile's bounds
//! promise (50 ms in a release build), with a wide margin for the coverage
//! instrumentation and the debug assertions of `-a`. CPU time, not wall-clock time, so
//! that other work on the machine does not count (a wall-clock bound failed while two
//! fuzzers and a build shared two cores). (Timing lives here, not in the invariants,
//! which the ordinary tests also run.)
//!
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a -s none validate -- -timeout=10`
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_jsonschema::mcp;
use mcp_jsonschema_fuzz::{invariants, Case};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The time a piece of work took on this thread's CPU ([`cpu_time`]); wall-clock time
/// where the kernel does not say.
struct Stopwatch {
    cpu: Option<Duration>,
    wall: Instant,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            cpu: cpu_time(),
            wall: Instant::now(),
        }
    }

    fn elapsed(&self) -> Duration {
        match (self.cpu, cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => self.wall.elapsed(),
        }
    }
}

/// This thread's time on a CPU so far (`/proc/thread-self/schedstat`, Linux).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The longest one compile or one validation (`is_valid`, then every error) may take
/// under the MCP profile.
const PROFILE_BOUND: Duration = Duration::from_millis(500);

fuzz_target!(|case: Case| {
    invariants::check_case(&case.schema, &case.instances, case.budget);
    timed_under_profile(&case.schema, &case.instances);
});

/// Panics when the profile's bounds let one compile or one validation run past
/// [`PROFILE_BOUND`].
fn timed_under_profile(schema: &Value, instances: &[Value]) {
    let start = Stopwatch::start();
    let compiled = mcp::profile().build(schema);
    let took = start.elapsed();
    assert!(
        took < PROFILE_BOUND,
        "compiling under the MCP profile took {took:?}\nschema: {schema}"
    );
    let Ok(validator) = compiled else {
        return;
    };
    for instance in instances {
        let start = Stopwatch::start();
        let _ = validator.is_valid(instance);
        let errors = validator.iter_errors(instance).count();
        let took = start.elapsed();
        assert!(
            took < PROFILE_BOUND,
            "a validation under the MCP profile took {took:?} ({errors} errors)\n\
             schema: {schema}\ninstance: {instance}"
        );
    }
}
