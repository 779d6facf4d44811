'use strict';
// The better-sqlite3 12 installed under this package (the top-level better-sqlite3 is 13, for Node 22+).
module.exports = require('better-sqlite3');
