import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Sift
import SiftEvaluation

/// How much memory a command may hold input in, and how much it holds: `sift filter` keeps
/// every match for `--sort`, `--section-by` and the table and csv formats; `sift import` reads a
/// JSON or CSV file whole. Past the budget the command stops with an error that says so and
/// what to do, instead of the process dying when an allocation fails.
///
/// The budget is `--memory SIZE`, else `SIFT_MEMORY`, else half of what the process may use:
/// the least of its address-space and data limits (`ulimit -v`, `ulimit -d`) less what it
/// already uses, its control group's memory limit, and the machine's memory. (Half, because
/// sorting and printing need working room beyond the records themselves.) A size is bytes, or
/// a number with `K`, `M` or `G` (powers of 1024): `512M`, `2G`.
struct MemoryBudget {
    /// The most bytes the command may hold.
    let limit: Int
    /// The bytes held so far (an estimate: see ``size(of:)``).
    private(set) var used = 0

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The budget `option` (`--memory`) or `SIFT_MEMORY` sets, or the process's default.
    /// `environment` stands for the process's (read with `getenv`: building Foundation's
    /// dictionary of it costs a one-shot command more than the rest of this).
    static func resolve(option: String?, environment: [String: String]? = nil) throws(BudgetError) -> MemoryBudget {
        if let option {
            guard let bytes = bytes(option) else { throw BudgetError("--memory takes a size such as 512M or 2G, not '\(option)'") }
            return MemoryBudget(limit: bytes)
        }
        let given = environment.map { $0["SIFT_MEMORY"] } ?? getenv("SIFT_MEMORY").map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
        if let text = given, !text.isEmpty {
            guard let bytes = bytes(text) else { throw BudgetError("SIFT_MEMORY takes a size such as 512M or 2G, not '\(text)'") }
            return MemoryBudget(limit: bytes)
        }
        return MemoryBudget(limit: systemDefault())
    }

    /// ``resolve(option:environment:)`` for a command's `run()`: a size that does not read is
    /// printed as an error, and the command exits with status 1.
    static func forCommand(option: String?) throws -> MemoryBudget {
        do {
            return try resolve(option: option)
        } catch {
            Output.error("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// Makes the process's budget the library's default memory limit
    /// (``EvaluationBudget/defaultMemoryLimit``): sections and imports into a store held in
    /// memory stop with an error past it. A `SIFT_MEMORY` that is not a size is left to the
    /// commands that read it to report.
    static func applyDefault() {
        EvaluationBudget.defaultMemoryLimit = ((try? resolve(option: nil)) ?? MemoryBudget(limit: systemDefault())).limit
    }

    /// What the library's memory errors add in `sift`: how to allow more.
    static let moreAdvice = "; or allow more with SIFT_MEMORY=SIZE (512M, 2G) where the machine has it"

    /// Adds `bytes` held; false once the total passes the limit.
    mutating func hold(_ bytes: Int) -> Bool {
        used = used.addingReportingOverflow(bytes).overflow ? Int.max : used + bytes
        return used <= limit
    }

    /// The limit for messages: `64 MB`, `512 KB`, `100 bytes`.
    var limitText: String { Self.text(limit) }

    // MARK: Sizes

    /// A size: digits, optionally followed by `K`, `M`, `G` or `T` (with or without `B`,
    /// any case; powers of 1024); nil for anything else or a size past `Int.max`.
    static func bytes(_ text: String) -> Int? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("B") { digits.removeLast() }
        var shift = 0
        if let unit = digits.last, let power = ["K": 10, "M": 20, "G": 30, "T": 40][String(unit)] {
            shift = power
            digits.removeLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : bytes
    }

    /// `n` bytes in the largest unit that keeps a whole number of them.
    static func text(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GB" }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }

    /// What a kept match costs, roughly: its value as the evaluator holds it, its text, and
    /// the room sorting and sectioning take per record.
    static func size(of match: Match) -> Int {
        let perRecord = 128
        return perRecord + (match.text.isEmpty ? 0 : 32 + match.text.count) + MemoryTally.size(of: match.value)
    }

    // MARK: The default

    /// Half of the least of: the address-space and data limits less what the process uses
    /// already, the control group's limit, the machine's memory; at least 16 MB.
    static func systemDefault() -> Int {
        var available = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        let usage = currentUsage()
        for (resource, used) in [(RLIMIT_AS, usage.virtual), (RLIMIT_DATA, usage.data)] {
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { continue }  // RLIM_INFINITY
            available = min(available, max(0, Int(clamping: limit.rlim_cur) - used))
        }
        if let group = controlGroupLimit() { available = min(available, group) }
        return max(16 << 20, available / 2)
    }

    /// The process's virtual size and data segment now, from `/proc/self/statm` (0 where it
    /// cannot be read).
    private static func currentUsage() -> (virtual: Int, data: Int) {
        let fields = numbers(inFile: "/proc/self/statm")
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard fields.count >= 6, let virtual = fields[0], let data = fields[5], page > 0 else { return (0, 0) }
        return (virtual * page, data * page)
    }

    /// The memory limit of the process's control group (cgroup v2 `memory.max`) less its use, if any.
    private static func controlGroupLimit() -> Int? {
        guard let limit = numbers(inFile: "/sys/fs/cgroup/memory.max").first ?? nil else { return nil }
        let current = (numbers(inFile: "/sys/fs/cgroup/memory.current").first ?? nil) ?? 0
        return max(0, limit - current)
    }

    /// The words of a small file of the kernel's, each as a number (nil for a word that is
    /// not one, such as `max`); none where the file cannot be read. Read with `read(2)`, not
    /// Foundation's strings, which a one-shot command would start up only for this.
    static func numbers(inFile path: String) -> [Int?] {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return [] }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        return bytes[..<count].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 })
            .map { Int(String(decoding: $0, as: UTF8.self)) }
    }
}

/// A `--memory` or `SIFT_MEMORY` that is not a size.
struct BudgetError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
