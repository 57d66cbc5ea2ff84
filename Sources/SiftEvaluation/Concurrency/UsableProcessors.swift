#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// How many processors this process may run on: the default of `sift filter --jobs`.
///
/// On Linux that is the processors of the affinity mask (`sched_getaffinity`, what `nproc`
/// prints, smaller than the machine's under `taskset` or a container's cpuset), further bounded
/// by a cgroup CPU quota (`cpu.max` of cgroup v2, `cpu.cfs_quota_us` of v1: a container given
/// "2 CPUs" of a 64-core machine sees 64 processors but gets the time of 2), rounded up.
/// Elsewhere, `ProcessInfo.activeProcessorCount`. Always at least 1.
public enum UsableProcessors {
    /// The number, read once.
    public static let count: Int = {
        var count = affinityCount() ?? ProcessInfo.processInfo.activeProcessorCount
        if let quota = cgroupQuota() { count = min(count, quota) }
        return max(1, count)
    }()

    /// The processors of this process's affinity mask (nil where it cannot be read).
    static func affinityCount() -> Int? {
        #if os(Linux)
        // Glibc's module map leaves sched_getaffinity out (it is a _GNU_SOURCE function): it is
        // looked up by name.
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(nil, "sched_getaffinity") else { return nil }
        let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
        // Room for 8,192 processors.
        var mask = [UInt64](repeating: 0, count: 128)
        let status = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress) }
        guard status == 0 else { return nil }
        let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
        return count > 0 ? count : nil
        #else
        return nil
        #endif
    }

    /// The CPU quota of this process's cgroup, in processors rounded up (nil: none).
    static func cgroupQuota() -> Int? {
        #if os(Linux)
        // cgroup v2: "max 100000" (no quota) or "200000 100000" (2 processors' time).
        for path in cgroupFiles("cpu.max") {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let fields = text.split(whereSeparator: \.isWhitespace)
            guard fields.count == 2 else { continue }
            if fields[0] == "max" { return nil }
            return quota(Int(fields[0]), Int(fields[1]))
        }
        // cgroup v1: cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us.
        let v1 = "/sys/fs/cgroup/cpu/"
        if let quotaText = try? String(contentsOfFile: v1 + "cpu.cfs_quota_us", encoding: .utf8),
           let periodText = try? String(contentsOfFile: v1 + "cpu.cfs_period_us", encoding: .utf8) {
            return quota(Int(quotaText.trimmingCharacters(in: .whitespacesAndNewlines)),
                         Int(periodText.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        #endif
        return nil
    }

    /// `quota / period` rounded up; nil when either is missing or not positive.
    static func quota(_ quota: Int?, _ period: Int?) -> Int? {
        guard let quota, let period, quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// Where a cgroup v2 file of this process's cgroup may be: under its own cgroup's directory
    /// (from /proc/self/cgroup, "0::/path"), then at the root (a container's namespace).
    private static func cgroupFiles(_ name: String) -> [String] {
        var paths: [String] = []
        if let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("0::") {
                let path = line.dropFirst(3)
                if path != "/" { paths.append("/sys/fs/cgroup" + path + "/" + name) }
            }
        }
        paths.append("/sys/fs/cgroup/" + name)
        return paths
    }
}
