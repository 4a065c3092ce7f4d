package io.github.leanscrape.benchmark;

import java.io.OutputStream;

/**
 * Where the benchmarks send finished bodies, as the web layer sends them to a socket: it
 * keeps nothing, allocates nothing, and counts the bytes so that the writes have an
 * observable effect.
 *
 * @author leanscrape
 */
final class CountingSink extends OutputStream {

	private long count;

	@Override
	public void write(int b) {
		this.count++;
	}

	@Override
	public void write(byte[] bytes, int offset, int length) {
		this.count += length;
	}

	/**
	 * Return how many bytes were written since this sink was created.
	 * @return the byte count
	 */
	long count() {
		return this.count;
	}

}
