package io.github.leanscrape.exposition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Produces scrape bodies: renders into a buffer sized from the previous scrape of the same
 * kind, hands the chunks over as a {@link ScrapeBody}, and compresses on request.
 *
 * @author leanscrape
 */
public final class Scraper {

	private final ScrapeRenderer renderer;

	private final ChunkPool pool;

	private final ScrapeSizeHints sizeHints;

	private final @Nullable GzipEncoder gzipEncoder;

	/**
	 * Create a new scraper.
	 * @param renderer the renderer that writes the exposition
	 * @param pool the pool of output chunks
	 * @param sizeHints the size hints of each kind of scrape
	 * @param gzipEncoder the encoder for compressed bodies, or {@code null} when compression
	 * is off
	 */
	public Scraper(ScrapeRenderer renderer, ChunkPool pool, ScrapeSizeHints sizeHints,
			@Nullable GzipEncoder gzipEncoder) {
		this.renderer = renderer;
		this.pool = pool;
		this.sizeHints = sizeHints;
		this.gzipEncoder = gzipEncoder;
	}

	/**
	 * Create a scraper with its own pool, size hints and, when compression is on, gzip
	 * encoder.
	 * @param renderer the renderer that writes the exposition
	 * @param headroom bytes added to the previous size of each kind of scrape
	 * @param maxRetained most bytes of free chunks kept between scrapes
	 * @param compressionLevel the gzip level, or {@code 0} for no compression
	 * @return the scraper
	 */
	public static Scraper create(ScrapeRenderer renderer, long headroom, long maxRetained, int compressionLevel) {
		ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, maxRetained);
		ScrapeSizeHints sizeHints = new ScrapeSizeHints(pool, headroom);
		GzipEncoder gzip = (compressionLevel != 0) ? new GzipEncoder(pool, compressionLevel) : null;
		return new Scraper(renderer, pool, sizeHints, gzip);
	}

	/**
	 * Return the size hints of this scraper.
	 * @return the size hints
	 */
	public ScrapeSizeHints sizeHints() {
		return this.sizeHints;
	}

	/**
	 * Render one scrape into a new body. The caller owns the body's reference and must
	 * release it.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the body
	 */
	public ScrapeBody scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		ScrapeKind kind = new ScrapeKind(format, includedNames, false);
		ScrapeBuffer buffer = new ScrapeBuffer(this.pool, kind, this.sizeHints.expectedSize(kind));
		try {
			this.renderer.render(format, includedNames, buffer);
			ScrapeBody body = buffer.toBody();
			this.sizeHints.record(kind, body.length());
			return body;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Writing metrics failed", ex);
		}
		finally {
			buffer.discard();
		}
	}

	/**
	 * Return whether bodies can be compressed.
	 * @return {@code true} when compression is on
	 */
	public boolean canCompress() {
		return this.gzipEncoder != null;
	}

	/**
	 * Compress a body with gzip. The input is not released.
	 * @param body a body from {@link #scrape}
	 * @return a new compressed body, owned by the caller
	 */
	public ScrapeBody gzip(ScrapeBody body) {
		if (this.gzipEncoder == null) {
			throw new IllegalStateException("Compression is off");
		}
		ScrapeKind kind = ((ScrapeKind) body.kind()).compressed();
		ScrapeBody encoded = this.gzipEncoder.encode(body, kind, this.sizeHints.expectedSize(kind));
		this.sizeHints.record(kind, encoded.length());
		return encoded;
	}

	/**
	 * Return the pool of output chunks.
	 * @return the pool
	 */
	public ChunkPool pool() {
		return this.pool;
	}

	/**
	 * What distinguishes scrapes whose sizes are remembered separately.
	 */
	private record ScrapeKind(PrometheusOutputFormat format, @Nullable Set<String> includedNames, boolean gzip) {

		ScrapeKind compressed() {
			return new ScrapeKind(this.format, this.includedNames, true);
		}

	}

}
