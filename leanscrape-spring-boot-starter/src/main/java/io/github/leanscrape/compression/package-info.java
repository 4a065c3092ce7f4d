/**
 * Compression of scrape bodies: which content coding a request gets
 * ({@code Accept-Encoding}), and the gzip and zstd encoders, which compress a body whole
 * or segment by segment, copying the compressed bytes of segments an earlier body in the
 * same coding already holds. What is kept between bodies, and so what may be copied, is
 * decided in {@code serve}.
 * <p>
 * Imports {@code exposition} (bodies, chunks, codings); never {@code serve}, {@code web},
 * {@code endpoint}, {@code autoconfigure} or {@code recording}.
 */
@NullMarked
package io.github.leanscrape.compression;

import org.jspecify.annotations.NullMarked;
