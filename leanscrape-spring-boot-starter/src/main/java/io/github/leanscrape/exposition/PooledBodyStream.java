package io.github.leanscrape.exposition;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A stream over a body's chunks ({@link PooledBody#openStream()}), which holds a
 * reference to the body until it is closed.
 *
 * @author leanscrape
 */
final class PooledBodyStream extends InputStream {

	private final PooledBody body;

	private int chunkIndex;

	private int position;

	private boolean closed;

	PooledBodyStream(PooledBody body) {
		this.body = body;
	}

	@Override
	public int read() throws IOException {
		if (!advance()) {
			return -1;
		}
		return this.body.chunk(this.chunkIndex)[this.position++] & 0xFF;
	}

	@Override
	public int read(byte[] target, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		if (!advance()) {
			return -1;
		}
		int n = Math.min(length, this.body.chunkLength(this.chunkIndex) - this.position);
		System.arraycopy(this.body.chunk(this.chunkIndex), this.position, target, offset, n);
		this.position += n;
		return n;
	}

	@Override
	public long transferTo(OutputStream out) throws IOException {
		// Spring's converters call this: write the chunks themselves, no buffer between.
		long transferred = 0;
		while (advance()) {
			int n = this.body.chunkLength(this.chunkIndex) - this.position;
			out.write(this.body.chunk(this.chunkIndex), this.position, n);
			this.position += n;
			transferred += n;
		}
		return transferred;
	}

	@Override
	public int available() {
		if (this.closed || this.chunkIndex >= this.body.chunkCount()) {
			return 0;
		}
		return this.body.chunkLength(this.chunkIndex) - this.position;
	}

	private boolean advance() throws IOException {
		if (this.closed) {
			throw new IOException("Stream closed");
		}
		while (this.chunkIndex < this.body.chunkCount() && this.position == this.body.chunkLength(this.chunkIndex)) {
			this.chunkIndex++;
			this.position = 0;
		}
		return this.chunkIndex < this.body.chunkCount();
	}

	@Override
	public void close() {
		if (!this.closed) {
			this.closed = true;
			this.body.release();
		}
	}

}
