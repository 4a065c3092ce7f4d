/**
 * Compression of scrape bodies: gzip and zstd encoders that can copy the compressed bytes
 * of segments an earlier body already holds. Imports {@code exposition} only.
 */
@NullMarked
package io.github.leanscrape.compression;

import org.jspecify.annotations.NullMarked;
