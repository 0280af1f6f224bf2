CREATE TABLE policy(id INTEGER PRIMARY KEY, name TEXT, criterion TEXT, year INT, body BLOB);
INSERT INTO policy(name, criterion, year, body) VALUES
 ('Hive inspection', '4.2 brood pattern', 2021, NULL),
 ('Mite treatment', '4.2 varroa count', 2023, x'00ff'),
 ('Honey harvest', '5.1 moisture', 2022, NULL),
 ('Winter feeding', '6.3 stores', 2023, NULL);
CREATE TABLE note(code TEXT, txt TEXT);
INSERT INTO note VALUES ('n-1', 'varroa thresholds'), ('n-2', 'swarm control');
