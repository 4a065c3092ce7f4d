package io.github.leanscrape.endpoint;

import java.io.IOException;
import java.io.InputStream;

import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.serve.PendingScrape;
import io.github.leanscrape.serve.ScrapeRejectedException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.AbstractResource;

/**
 * The body of the endpoint's response, as a {@link org.springframework.core.io.Resource}
 * so that any web layer can send it. The starter's own body writers take the
 * {@link #pending() pending scrape} out of it and serve it with the request's timeout and
 * encoding. A web layer that does not know it (another stack) reads it as a stream, which
 * serves the scrape with the default timeout; the stream then holds the body, and gives
 * it back when it is closed.
 *
 * @author leanscrape
 */
public final class PendingScrapeResource extends AbstractResource {

	private final PendingScrape pending;

	private final Deadlines deadlines;

	PendingScrapeResource(PendingScrape pending, Deadlines deadlines) {
		this.pending = pending;
		this.deadlines = deadlines;
	}

	/**
	 * Return the scrape to serve.
	 * @return the pending scrape
	 */
	public PendingScrape pending() {
		return this.pending;
	}

	private PooledBody body() throws IOException {
		try {
			return this.pending.resolve(this.deadlines.deadline(null, System.nanoTime())).body().plain();
		}
		catch (ScrapeRejectedException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
		catch (IllegalStateException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
	}

	@Override
	public boolean exists() {
		return true;
	}

	@Override
	public long contentLength() throws IOException {
		return body().length();
	}

	@Override
	public long lastModified() {
		return -1;
	}

	@Override
	public InputStream getInputStream() throws IOException {
		// The stream takes a reference of its own; the scrape's goes back now, so that
		// the body returns to the pool when the reader closes the stream.
		InputStream stream = body().openStream();
		this.pending.release();
		return stream;
	}

	@Override
	public String getDescription() {
		return "Prometheus scrape [" + this.pending.format() + "]";
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other;
	}

	@Override
	public int hashCode() {
		return System.identityHashCode(this);
	}

}
