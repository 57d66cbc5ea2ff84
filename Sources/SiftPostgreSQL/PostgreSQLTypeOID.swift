/// A PostgreSQL type's OID (`pg_type.oid`): what a parameter is declared as and what a result
/// column holds. The built-in types' OIDs are fixed (`pg_type.dat`); others are the database's own.
public struct PostgreSQLTypeOID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No type: a parameter declared so gets the type the server infers from the SQL.
    public static let unspecified = PostgreSQLTypeOID(rawValue: 0)
    public static let bool = PostgreSQLTypeOID(rawValue: 16)
    public static let bytea = PostgreSQLTypeOID(rawValue: 17)
    /// `"char"`, the one-byte internal type of the catalogs.
    public static let char = PostgreSQLTypeOID(rawValue: 18)
    public static let name = PostgreSQLTypeOID(rawValue: 19)
    public static let int8 = PostgreSQLTypeOID(rawValue: 20)
    public static let int2 = PostgreSQLTypeOID(rawValue: 21)
    public static let int4 = PostgreSQLTypeOID(rawValue: 23)
    public static let text = PostgreSQLTypeOID(rawValue: 25)
    public static let oid = PostgreSQLTypeOID(rawValue: 26)
    public static let json = PostgreSQLTypeOID(rawValue: 114)
    public static let xml = PostgreSQLTypeOID(rawValue: 142)
    public static let float4 = PostgreSQLTypeOID(rawValue: 700)
    public static let float8 = PostgreSQLTypeOID(rawValue: 701)
    /// The type of a quoted literal whose type nothing decided.
    public static let unknown = PostgreSQLTypeOID(rawValue: 705)
    /// `character(n)`.
    public static let bpchar = PostgreSQLTypeOID(rawValue: 1042)
    /// `character varying(n)`.
    public static let varchar = PostgreSQLTypeOID(rawValue: 1043)
    public static let date = PostgreSQLTypeOID(rawValue: 1082)
    /// `timestamp without time zone`.
    public static let timestamp = PostgreSQLTypeOID(rawValue: 1114)
    /// `timestamp with time zone`.
    public static let timestamptz = PostgreSQLTypeOID(rawValue: 1184)
    public static let numeric = PostgreSQLTypeOID(rawValue: 1700)
    public static let uuid = PostgreSQLTypeOID(rawValue: 2950)
    public static let jsonb = PostgreSQLTypeOID(rawValue: 3802)

    /// The OID as a number.
    public var description: String { String(rawValue) }
}
