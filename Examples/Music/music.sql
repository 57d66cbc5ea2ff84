-- A small music database in the shape of the Chinook sample (Artist, Album, Genre, Track,
-- Invoice): the kind of SQLite file Sift did not create. Make it with
--   sqlite3 music.db < Examples/Music/music.sql
-- and open it with sift schema / query / explain --store music.db (docs/SQLITE-DATABASES.md).
PRAGMA foreign_keys = ON;

CREATE TABLE Artist (
    ArtistId INTEGER PRIMARY KEY,
    Name NVARCHAR(120)
);

CREATE TABLE Album (
    AlbumId INTEGER PRIMARY KEY,
    Title NVARCHAR(160) NOT NULL,
    ArtistId INTEGER NOT NULL REFERENCES Artist (ArtistId)
);
CREATE INDEX IFK_AlbumArtistId ON Album (ArtistId);

CREATE TABLE Genre (
    GenreId INTEGER PRIMARY KEY,
    Name NVARCHAR(120)
);

CREATE TABLE Track (
    TrackId INTEGER PRIMARY KEY,
    Name NVARCHAR(200) NOT NULL,
    AlbumId INTEGER REFERENCES Album (AlbumId),
    GenreId INTEGER REFERENCES Genre (GenreId),
    Milliseconds INTEGER NOT NULL,
    UnitPrice NUMERIC(10,2) NOT NULL
);
CREATE INDEX IFK_TrackAlbumId ON Track (AlbumId);

CREATE TABLE Invoice (
    InvoiceId INTEGER PRIMARY KEY,
    InvoiceDate DATETIME NOT NULL,
    BillingCountry NVARCHAR(40),
    Total NUMERIC(10,2) NOT NULL
);

INSERT INTO Artist (ArtistId, Name) VALUES
    (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith'), (4, 'Alanis Morissette'),
    (5, 'Iron Maiden'), (6, 'Led Zeppelin'), (7, 'Miles Davis');

INSERT INTO Album (AlbumId, Title, ArtistId) VALUES
    (1, 'For Those About To Rock We Salute You', 1), (2, 'Let There Be Rock', 1),
    (3, 'Balls to the Wall', 2), (4, 'Restless and Wild', 2),
    (5, 'Big Ones', 3), (6, 'Jagged Little Pill', 4),
    (7, 'Powerslave', 5), (8, 'Piece Of Mind', 5), (9, 'Fear Of The Dark', 5),
    (10, 'Brave New World', 5), (11, 'Somewhere in Time', 5),
    (12, 'Physical Graffiti', 6), (13, 'Houses Of The Holy', 6), (14, 'Presence', 6),
    (15, 'BBC Sessions', 6), (16, 'Kind of Blue', 7);

INSERT INTO Genre (GenreId, Name) VALUES (1, 'Rock'), (2, 'Jazz'), (3, 'Metal'), (4, 'Alternative & Punk');

INSERT INTO Track (TrackId, Name, AlbumId, GenreId, Milliseconds, UnitPrice) VALUES
    (1, 'For Those About To Rock (We Salute You)', 1, 1, 343719, 0.99),
    (2, 'Put The Finger On You', 1, 1, 205662, 0.99),
    (3, 'Go Down', 2, 1, 331180, 0.99),
    (4, 'Dog Eat Dog', 2, 1, 215196, 0.99),
    (5, 'Balls to the Wall', 3, 1, 342562, 0.99),
    (6, 'Fast As a Shark', 4, 1, 230619, 0.99),
    (7, 'Walk On Water', 5, 1, 295680, 0.99),
    (8, 'All I Really Want', 6, 1, 284891, 0.99),
    (9, 'You Oughta Know', 6, 1, 249234, 0.99),
    (10, 'Aces High', 7, 3, 269531, 0.99),
    (11, 'Flight Of Icarus', 8, 3, 229982, 0.99),
    (12, 'The Trooper', 8, 3, 251585, 0.99),
    (13, 'Fear Of The Dark', 9, 3, 438804, 0.99),
    (14, 'Wasting Love', 9, 3, 350197, 0.99),
    (15, 'Brave New World', 10, 3, 378984, 0.99),
    (16, 'Wasted Years', 11, 3, 308897, 0.99),
    (17, 'Custard Pie', 12, 1, 253962, 0.99),
    (18, 'Kashmir', 12, 1, 508055, 0.99),
    (19, 'The Rain Song', 13, 1, 459180, 0.99),
    (20, 'Achilles Last Stand', 14, 1, 625084, 0.99),
    (21, 'Whole Lotta Love', 15, 1, 373394, 0.99),
    (22, 'So What', 16, 2, 564009, 0.99),
    (23, 'Freddie Freeloader', 16, 2, 574250, 0.99),
    (24, 'Blue In Green', 16, 2, 337423, 0.99),
    (25, 'Untitled', NULL, NULL, 1000, 0.99);

INSERT INTO Invoice (InvoiceId, InvoiceDate, BillingCountry, Total) VALUES
    (1, '2009-01-01 00:00:00', 'Germany', 1.98),
    (2, '2009-01-02 00:00:00', 'Norway', 3.96),
    (3, '2010-03-11 00:00:00', 'Brazil', 5.94),
    (4, '2011-06-01 00:00:00', 'Canada', 8.91),
    (5, '2011-06-19 00:00:00', 'Germany', 1.98),
    (6, '2012-12-24 00:00:00', 'USA', 13.86),
    (7, '2013-12-22 00:00:00', 'USA', 1.99);
