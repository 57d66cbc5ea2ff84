import Foundation
import Sift

/// fuzz-evaluate: the evaluator over JSON. The input's first line is a predicate; the rest is
/// JSON records (a JSON array or JSON Lines, as `sift filter` reads them). Each record is
/// evaluated as read in full and as read with the predicate's projection (only the keys it
/// reads built, as `sift filter` does): the answers must agree, and both readers must find the
/// same records and the same errors. When the rest holds no record, the predicate is
/// evaluated on a fixed object. The matches are then sorted by the keys the predicate reads.
public enum EvaluateHarness {
    static let maximumRecords = 64

    static let fallback: Value = {
        do {
            return try JSONParser.parse(#"{"name": "Ann", "age": 30, "score": 2.5, "tags": ["a", "b", "B"], "flag": true, "none": null, "when": "2017-07-06T07:22:18Z", "nested": {"x": 1, "list": [1, 2.5, "3"], "name": "é"}, "items": [{"name": "x", "price": 3}, {"name": "y", "price": -1.5}]}"#)
        } catch {
            fatalError("\(error)")
        }
    }()

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let newline = data.firstIndex(of: UInt8(ascii: "\n")) ?? data.count
        let text = String(decoding: UnsafeBufferPointer(rebasing: data[..<newline]), as: UTF8.self)
        let json = newline < data.count ? UnsafeBufferPointer(rebasing: data[(newline + 1)...]) : UnsafeBufferPointer(start: nil, count: 0)
        guard let parsed = try? PredicateNode(format: text),
              Determinism.isDeterministic([.predicate(parsed)]),
              let predicate = try? CompiledPredicate(parsed) else { return }
        let keys = JSONProjection.keys(readBy: parsed)
        let full = JSONRecordReader(bytes: json, keepingText: false)
        let projected = keys.map { JSONRecordReader(bytes: json, keepingText: false, projection: JSONProjection(keys: $0)) }
        var matches: [Value] = []
        var records = 0
        while records < maximumRecords {
            let a = Result { try full.next() }
            let b = projected.map { reader in Result { try reader.next() } }
            if let b {
                switch (a, b) {
                case (.failure(let x), .failure(let y)):
                    fuzzCheck("\(x)" == "\(y)", "the projected reader fails differently: \(x) ≠ \(y)\n  predicate: \(quoted(text))")
                case (.success(let x), .success(let y)):
                    fuzzCheck((x == nil) == (y == nil), "the projected reader finds \(y == nil ? "fewer" : "more") records\n  predicate: \(quoted(text))")
                default:
                    fuzzFailure("one reader fails and the other does not at record \(records): full \(a), projected \(b)\n  predicate: \(quoted(text))")
                }
            }
            guard case .success(let record?) = a else { break }
            records += 1
            let answer = Result { () throws(EvaluationError) -> Bool in try predicate.evaluate(record.value) }
            if case .success(let projectedRecord?)? = b {
                let projectedAnswer = Result { () throws(EvaluationError) -> Bool in try predicate.evaluate(projectedRecord.value) }
                switch (answer, projectedAnswer) {
                case (.success(let x), .success(let y)):
                    fuzzCheck(x == y, "the predicate is \(x) on the record and \(y) on its projection\n  predicate: \(quoted(text))\n  record: \(JSONWriter.string(record.value).prefix(400))")
                case (.failure, .failure): break
                default:
                    fuzzFailure("the predicate fails on only one of the record and its projection: \(answer) / \(projectedAnswer)\n  predicate: \(quoted(text))\n  record: \(JSONWriter.string(record.value).prefix(400))")
                }
            }
            if case .success(true) = answer { matches.append(record.value) }
        }
        if records == 0, (try? predicate.evaluate(fallback)) == true { matches.append(fallback) }
        if matches.count > 1, let keys, !keys.isEmpty {
            _ = try? Sorting.sortedIndices(matches, by: keys.sorted().map { SortKey($0) })
        }
    }
}
