package io.github.leanscrape.endpoint;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

import io.github.leanscrape.exposition.Scrape;
import io.github.leanscrape.exposition.ScrapeRejectedException;
import io.github.leanscrape.exposition.Scraper;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.io.AbstractResource;

/**
 * The body of the endpoint's response: a scrape that the web layer serves once it knows
 * what the operation cannot see (the scrape timeout, the accepted encodings). Rendering,
 * or joining a rendering already in flight, happens in {@link #resolve}.
 * <p>
 * It is a {@link org.springframework.core.io.Resource} so that any web layer can send it:
 * one that does not know it (a range request, another stack) reads it as a stream, which
 * resolves it with the default timeout. {@link #release()} gives its body back, once the
 * response is done.
 *
 * @author leanscrape
 */
public final class PendingScrape extends AbstractResource {

	private final Scraper scraper;

	private final PrometheusOutputFormat format;

	private final @Nullable Set<String> includedNames;

	private final ScrapeTimeouts timeouts;

	private @Nullable Scrape scrape;

	private boolean released;

	PendingScrape(Scraper scraper, PrometheusOutputFormat format, @Nullable Set<String> includedNames,
			ScrapeTimeouts timeouts) {
		this.scraper = scraper;
		this.format = format;
		this.includedNames = includedNames;
		this.timeouts = timeouts;
	}

	/**
	 * Return the negotiated format.
	 * @return the format
	 */
	public PrometheusOutputFormat format() {
		return this.format;
	}

	/**
	 * Serve the scrape: render it, or join a rendering in flight, or take a cached body.
	 * Later calls return the same scrape.
	 * @param deadlineNanos the {@link System#nanoTime()} by which the body must be ready
	 * @return the scrape, whose body this object releases
	 * @throws ScrapeRejectedException when the deadline passes first
	 */
	public Scrape resolve(long deadlineNanos) throws ScrapeRejectedException {
		synchronized (this) {
			assertNotReleased();
			if (this.scrape != null) {
				return this.scrape;
			}
		}
		// Not under the lock: release() must never wait for a rendering (it may run on an
		// event loop, when the client goes away).
		Scrape served = this.scraper.scrape(this.format, this.includedNames, deadlineNanos);
		synchronized (this) {
			if (this.released || this.scrape != null) {
				served.body().release();
				assertNotReleased();
				return this.scrape;
			}
			this.scrape = served;
			return served;
		}
	}

	private void assertNotReleased() {
		if (this.released) {
			throw new IllegalStateException("Scrape already released");
		}
	}

	/**
	 * Give the body back to the pool. Safe to call more than once, and before the scrape
	 * was resolved.
	 */
	public void release() {
		Scrape resolved;
		synchronized (this) {
			if (this.released) {
				return;
			}
			this.released = true;
			resolved = this.scrape;
		}
		if (resolved != null) {
			resolved.body().release();
		}
	}

	private Scrape resolveWithDefaultTimeout() throws IOException {
		try {
			return resolve(this.timeouts.deadline(null, System.nanoTime()));
		}
		catch (ScrapeRejectedException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
	}

	@Override
	public boolean exists() {
		return true;
	}

	@Override
	public long contentLength() throws IOException {
		return resolveWithDefaultTimeout().body().length();
	}

	@Override
	public long lastModified() {
		return -1;
	}

	@Override
	public InputStream getInputStream() throws IOException {
		return resolveWithDefaultTimeout().body().getInputStream();
	}

	@Override
	public String getDescription() {
		return "Prometheus scrape [" + this.format + "]";
	}

	@Override
	public boolean equals(Object other) {
		return this == other;
	}

	@Override
	public int hashCode() {
		return System.identityHashCode(this);
	}

}
