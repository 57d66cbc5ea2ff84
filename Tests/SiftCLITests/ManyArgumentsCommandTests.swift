import Foundation
import Testing
import TestTimeLimits
@testable import SiftCLI

/// Many `--arg` and `--var` options (issue 29, item 7): the argument parser takes time
/// quadratic in how often an option repeats (10,000 `--arg` took 15 s), so past a few dozen
/// they are read before it, in one pass, with the same meaning.
@Suite struct ManyArgumentsCommandTests {
    static let count = 10_000

    @Test(.hangGuard())
    func tenThousandArgsAndVarsAreRead() throws {
        // a IN {%@, %@, ...} with 10,000 --arg, and $v9999 bound by one of 10,000 --var.
        let format = "a IN {" + Array(repeating: "%@", count: Self.count).joined(separator: ", ") + "} AND b == $v\(Self.count - 1)"
        var arguments = ["filter", format]
        for i in 0..<Self.count { arguments += ["--arg", "\(i * 2)"] }
        for i in 0..<Self.count { arguments += i.isMultiple(of: 2) ? ["--var", "v\(i)=\(i)"] : ["--var=v\(i)=\(i)"] }
        arguments += ["--output", "jsonl"]
        let input = #"{"a": 19998, "b": 9999}"# + "\n" + #"{"a": 3, "b": 9999}"# + "\n" + #"{"a": 4, "b": 1}"# + "\n"
        let r = try SiftBinary.run(arguments: arguments, stdin: input)
        #expect(r.status == 0, "\(r.stderr.prefix(500))")
        #expect(r.stdout == #"{"a": 19998, "b": 9999}"# + "\n", "\(r.stdout)")
        // One too many is the same error as with a few.
        let extra = try SiftBinary.run(arguments: ["filter", "a == %@"] + (0..<Self.count).flatMap { ["--arg", "\($0)"] }, stdin: "")
        #expect(extra.status == 1)
        #expect(extra.stderr.contains("10000 arguments were given but the format string uses 1 (9999 left over)"), "\(extra.stderr.prefix(300))")
    }

    @Test func theCommandLineOutsideTheOptionsIsKept() {
        var words = ["filter", "--sort", "a", "x == %@"]
        for i in 0..<100 { words += ["--arg", "\(i)"] }
        words += ["--var=v=1", "--", "--arg"]
        let taken = ArgumentPrescan.extract(words)
        #expect(taken.rest == ["filter", "--sort", "a", "x == %@", "--", "--arg"])
        #expect(taken.arguments == (0..<100).map(String.init))
        #expect(taken.variables == ["v=1"])
        // A few are left to the parser; so are the commands that do not read ArgumentValues.
        #expect(ArgumentPrescan.extract(["filter", "--arg", "1", "x == %@"]).rest == ["filter", "--arg", "1", "x == %@"])
        let run = ["run"] + (0..<100).flatMap { ["--var", "v\($0)=1"] }
        #expect(ArgumentPrescan.extract(run).rest == run)
    }
}
