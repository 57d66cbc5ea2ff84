#ifndef SIFT_CLIBPQ_H
#define SIFT_CLIBPQ_H
// PostgreSQL's client library, loaded when it is first needed rather than linked.
//
// Linking libpq loads it and its dependencies (libssl, libcrypto, Kerberos, LDAP: about twenty
// shared libraries) into every `sift` process, SQLite users' included: 5 MB more resident and a
// third slower to start. Instead, `sift_pq_load` opens the system's libpq (`libpq.so.5`, apt
// `libpq5`) with dlopen the first time a PostgreSQL connection is made, and the `sift_PQ…`
// functions below call its functions of the same names. Only the types and constants come from
// libpq's header (apt `libpq-dev`, under /usr/include/postgresql on Debian).
#include <stddef.h>
#include <postgresql/libpq-fe.h>

/// Loads libpq once (thread-safe); 0 when it is loaded, else -1 with why in `error`
/// (NUL-terminated, cut to `size`). Call it before any `sift_PQ…` function.
int sift_pq_load(char *error, size_t size);

// The functions Sift uses, each calling libpq's function of the same name.
#define SIFT_PQ_FUNCTIONS(F, V) \
    V(PQclear, (PGresult *res), (res)) \
    F(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
    F(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    F(int, PQnfields, (const PGresult *res), (res)) \
    F(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    F(char *, PQuser, (const PGconn *conn), (conn)) \
    F(int, PQsetSingleRowMode, (PGconn *conn), (conn)) \
    F(PGVerbosity, PQsetErrorVerbosity, (PGconn *conn, PGVerbosity verbosity), (conn, verbosity)) \
    F(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    F(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    F(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes)) \
    F(char *, PQport, (const PGconn *conn), (conn)) \
    F(int, PQntuples, (const PGresult *res), (res)) \
    F(char *, PQhost, (const PGconn *conn), (conn)) \
    F(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    F(PGcancel *, PQgetCancel, (PGconn *conn), (conn)) \
    F(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    V(PQfinish, (PGconn *conn), (conn)) \
    F(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                   const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    F(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    F(char *, PQdb, (const PGconn *conn), (conn)) \
    F(PGconn *, PQconnectStartParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname)) \
    F(char *, PQcmdTuples, (PGresult *res), (res)) \
    F(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    F(int, PQsocket, (const PGconn *conn), (conn)) \
    F(int, PQserverVersion, (const PGconn *conn), (conn)) \
    F(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                 const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    F(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    F(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    V(PQfreeCancel, (PGcancel *cancel), (cancel)) \
    F(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    F(int, PQfformat, (const PGresult *res, int field_num), (res, field_num)) \
    V(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions)) \
    F(PQconninfoOption *, PQconninfo, (PGconn *conn), (conn)) \
    F(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    F(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn)) \
    F(int, PQlibVersion, (void), ()) \
    F(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
    F(int, PQconsumeInput, (PGconn *conn), (conn)) \
    F(PGnotify *, PQnotifies, (PGconn *conn), (conn)) \
    V(PQfreemem, (void *ptr), (ptr)) \
    F(int, PQbackendPID, (const PGconn *conn), (conn))

#define SIFT_PQ_DECLARE(type, name, parameters, arguments) type sift_##name parameters;
#define SIFT_PQ_DECLARE_VOID(name, parameters, arguments) void sift_##name parameters;
SIFT_PQ_FUNCTIONS(SIFT_PQ_DECLARE, SIFT_PQ_DECLARE_VOID)
#undef SIFT_PQ_DECLARE
#undef SIFT_PQ_DECLARE_VOID

#endif
