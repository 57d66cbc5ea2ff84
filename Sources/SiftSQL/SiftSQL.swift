// The SQLite store: schema from a model, the SQL compiler, introspection of existing databases.
import SiftSQLite
