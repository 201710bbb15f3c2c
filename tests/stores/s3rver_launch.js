'use strict';
// Starts s3rver (PEER_DIR/node_modules/s3rver, installed by s3rver_setup.sh)
// with its own command line, after one fix to its filesystem store:
//
//   node --openssl-legacy-provider s3rver_launch.js PEER_DIR S3RVER_ARGS...
//
// s3rver 3.7.1 answers a PUT before the object's file is written: its
// putObject resolves when the body has passed its MD5 transform, not when
// the file stream has finished. A GET that follows at once may then stat a
// short or empty file and answer 200 with that many bytes. A loaded machine
// hit it (CI's sanitizer pass: a chunk written one call earlier read as 0
// bytes). Here putObject returns only after the file is complete.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { Readable, Transform } = require('stream');
const { pipeline } = require('stream/promises');

const peerDir = process.argv[2];
const s3rverDir = path.join(peerDir, 'node_modules', 's3rver');
const FilesystemStore = require(path.join(s3rverDir, 'lib', 'stores', 'filesystem.js'));

FilesystemStore.prototype.putObject = async function putObject(object) {
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
  const md5Context = crypto.createHash('md5');
  let size = 0;
  const measure = new Transform({
    transform(chunk, encoding, callback) {
      md5Context.update(chunk, encoding);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
  await pipeline(content, measure, fs.createWriteStream(objectPath));
  const md5 = md5Context.digest('hex');
  await this.putMetadata(object.bucket, object.key, object.metadata, md5);
  return { size, md5 };
};

// s3rver's command line reads process.argv from its third entry on.
process.argv.splice(1, 2, path.join(s3rverDir, 'bin', 's3rver.js'));
require(path.join(s3rverDir, 'bin', 's3rver.js'));
