import Foundation
@testable import SiftEvaluation

/// Small queryable types for the typed API's tests.
enum QueryableFixtures {
    struct Tag: PredicateQueryable, Equatable {
        var name: String
        static let queryableKeys: QueryableKeys<Tag> = ["name": .key(\.name)]
    }

    struct Movie: PredicateQueryable, Equatable {
        var title: String
        var year: Int
        var rating: Double?
        var tags: [Tag]
        var director: Tag?
        static let queryableKeys: QueryableKeys<Movie> = [
            "title": .key(\.title), "year": .key(\.year), "rating": .key(\.rating), "tags": .key(\.tags),
            "director": .key(\.director),
        ]
    }

    /// A type that refers to itself, with a computed key and an open dictionary.
    struct Person: PredicateQueryable, Equatable {
        var name: String
        var age: Int
        var city: String
        var friends: [Person]
        var extra: [String: String]
        static let queryableKeys: QueryableKeys<Person> = [
            "name": .key(\.name), "age": .key(\.age), "city": .key(\.city), "friends": .key(\.friends),
            "extra": .key(\.extra), "initial": .computed { .string(String($0.name.prefix(1))) },
        ]

        init(_ name: String, _ age: Int, _ city: String, friends: [Person] = [], extra: [String: String] = [:]) {
            self.name = name
            self.age = age
            self.city = city
            self.friends = friends
            self.extra = extra
        }
    }

    static let movies: [Movie] = [
        Movie(title: "Arrival", year: 2016, rating: 7.9, tags: [Tag(name: "sci-fi"), Tag(name: "drama")], director: Tag(name: "Denis")),
        Movie(title: "Alien", year: 1979, rating: 8.5, tags: [Tag(name: "sci-fi"), Tag(name: "horror")], director: Tag(name: "Ridley")),
        Movie(title: "Amélie", year: 2001, rating: nil, tags: [Tag(name: "comedy")], director: nil),
    ]
}
