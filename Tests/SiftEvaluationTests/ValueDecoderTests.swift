import Foundation
import Testing
@testable import SiftEvaluation

/// Decodable Swift types from values.
@Suite("ValueDecoder")
struct ValueDecoderTests {
    struct Movie: Decodable, Equatable {
        struct Credit: Decodable, Equatable { var name: String; var order: Int8 }
        var title: String
        var year: Int
        var rating: Double?
        var budget: Decimal?
        var released: Date
        var id: UUID
        var tags: [String]
        var credits: [Credit]
        var seen: Bool
    }

    @Test func decodesScalarsCollectionsAndNestedTypes() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        let value: Value = [
            "title": "Arrival", "year": 2016, "rating": 8, "budget": 47, "released": .date(date), "id": .string(uuid.uuidString),
            "tags": .set(["sci-fi"]), "credits": [["name": "Amy", "order": 1]], "seen": true, "extra": "ignored",
        ]
        let movie = try ValueDecoder().decode(Movie.self, from: value)
        #expect(movie == Movie(title: "Arrival", year: 2016, rating: 8.0, budget: Decimal(47), released: date, id: uuid, tags: ["sci-fi"],
                               credits: [.init(name: "Amy", order: 1)], seen: true))
        #expect(try ValueDecoder().decode([Int].self, from: [1, 2.0]) == [1, 2])
        #expect(try ValueDecoder().decode(Int?.self, from: nil) == nil)
    }

    @Test func mismatchesNameThePath() {
        do {
            _ = try ValueDecoder().decode([Movie.Credit].self, from: [["name": "Amy", "order": 1000]])
            Issue.record("no error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 0", "order"])
            #expect(context.debugDescription == "expected Int8, found integer 1000")
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Int.self, from: 2.5) }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(String.self, from: 1) }
    }
}
