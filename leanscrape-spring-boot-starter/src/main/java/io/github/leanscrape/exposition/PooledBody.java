package io.github.leanscrape.exposition;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * A finished, read-only body over pooled chunks, never copied into one array. It starts
 * with one reference; the chunks go back to the pool when the last is released.
 *
 * @author leanscrape
 */
public final class PooledBody {

	private final ChunkPool pool;

	private final BodyKind kind;

	/** The slots below {@link #chunkCount} hold chunks until they go back to the pool. */
	private final byte[] @Nullable [] chunks;

	private final int chunkCount;

	private final int lastChunkLength;

	private final long length;

	private final ReferenceCount references = new ReferenceCount();

	// Chunks given back early (releaseBefore), by the only reference's holder.
	private volatile int releasedChunks;

	private final long[] segmentEnds;

	private final int segmentMarks;

	private final @Nullable RenderRecord record;

	PooledBody(ChunkPool pool, BodyKind kind, byte[] @Nullable [] chunks, int chunkCount, int lastChunkLength,
			long[] segmentEnds, int segmentMarks, @Nullable RenderRecord record) {
		this.pool = pool;
		this.record = record;
		this.segmentEnds = segmentEnds;
		this.segmentMarks = segmentMarks;
		this.kind = kind;
		this.chunks = chunks;
		this.chunkCount = chunkCount;
		this.lastChunkLength = lastChunkLength;
		this.length = (long) (chunkCount - 1) * pool.chunkSize() + lastChunkLength;
	}

	/**
	 * Return what the renderer noted while writing this body.
	 * @return the record, or {@code null}
	 * @see ChunkedOutput#setRecord(RenderRecord)
	 */
	public @Nullable RenderRecord record() {
		return this.record;
	}

	/**
	 * Return the number of bytes in this body.
	 * @return the length
	 */
	public long length() {
		return this.length;
	}

	/**
	 * Return what kind of scrape produced this body.
	 * @return the kind
	 */
	public BodyKind kind() {
		return this.kind;
	}

	/**
	 * Return how many segments, each compressible on its own, the body has.
	 * @return the number of segments, at least one
	 */
	public int segmentCount() {
		boolean tail = this.segmentMarks == 0 || this.segmentEnds[this.segmentMarks - 1] < this.length;
		return this.segmentMarks + (tail ? 1 : 0);
	}

	/**
	 * Return where a segment starts.
	 * @param index the segment, below {@link #segmentCount()}
	 * @return its first byte's offset in the body
	 */
	public long segmentStart(int index) {
		return (index == 0) ? 0 : this.segmentEnds[index - 1];
	}

	/**
	 * Return where a segment ends.
	 * @param index the segment, below {@link #segmentCount()}
	 * @return the offset after its last byte
	 */
	public long segmentEnd(int index) {
		return (index < this.segmentMarks) ? this.segmentEnds[index] : this.length;
	}

	// Whether a range of this body holds the same bytes as part of a chunk.
	boolean rangeEquals(long start, byte[] bytes, int offset, int length) {
		assertLive();
		int done = 0;
		while (done < length) {
			long here = start + done;
			int chunk = chunkIndex(here);
			int chunkOffset = chunkOffset(here);
			int n = Math.min(length - done, chunkLength(chunk) - chunkOffset);
			if (!Arrays.equals(chunkAt(chunk), chunkOffset, chunkOffset + n, bytes, offset + done, offset + done + n)) {
				return false;
			}
			done += n;
		}
		return true;
	}

	/**
	 * Give a range of this body to a sink, a chunk's part at a time.
	 * @param start where the range starts
	 * @param length its length
	 * @param sink where its bytes go
	 */
	public void writeRange(long start, long length, RangeSink sink) {
		assertLive();
		long done = 0;
		while (done < length) {
			long position = start + done;
			int chunk = chunkIndex(position);
			int offset = chunkOffset(position);
			int n = (int) Math.min(length - done, chunkLength(chunk) - offset);
			sink.write(chunkAt(chunk), offset, n);
			done += n;
		}
	}

	private int chunkIndex(long position) {
		return (int) (position / this.pool.chunkSize());
	}

	private int chunkOffset(long position) {
		return (int) (position % this.pool.chunkSize());
	}

	/**
	 * Return how many chunks this body still holds.
	 * @return the chunks, none once released
	 */
	public long heldChunks() {
		return isReleased() ? 0 : this.chunkCount - this.releasedChunks;
	}

	/**
	 * Return how many bytes each chunk but the last holds.
	 * @return the pool's chunk size
	 */
	public int chunkSize() {
		return this.pool.chunkSize();
	}

	/**
	 * Return the number of chunks that hold this body.
	 * @return the number of chunks, at least one
	 */
	public int chunkCount() {
		return this.chunkCount;
	}

	/**
	 * Return a chunk, valid while a reference is held; never modify it.
	 * @param index the chunk index
	 * @return the chunk
	 */
	public byte[] chunk(int index) {
		assertLive();
		return chunkAt(index);
	}

	/**
	 * Return how many bytes of a chunk belong to this body.
	 * @param index the chunk index
	 * @return the used length of that chunk
	 */
	public int chunkLength(int index) {
		return (index == this.chunkCount - 1) ? this.lastChunkLength : chunkAt(index).length;
	}

	/**
	 * Write the whole body to a stream, chunk by chunk.
	 * @param out the stream to write to
	 * @throws IOException when writing fails
	 */
	public void writeTo(OutputStream out) throws IOException {
		assertLive();
		for (int i = 0; i < this.chunkCount; i++) {
			out.write(chunkAt(i), 0, chunkLength(i));
		}
	}

	/**
	 * Copy the body into a new array; the web path never does.
	 * @return a copy of the body
	 */
	public byte[] toByteArray() {
		assertLive();
		if (this.length > Integer.MAX_VALUE - 16) {
			throw new IllegalStateException("Body of " + this.length + " bytes does not fit in an array");
		}
		byte[] copy = new byte[(int) this.length];
		int offset = 0;
		for (int i = 0; i < this.chunkCount; i++) {
			int n = chunkLength(i);
			System.arraycopy(chunkAt(i), 0, copy, offset, n);
			offset += n;
		}
		return copy;
	}

	/**
	 * Add a reference, for one more reader of this body.
	 * @return this body
	 */
	public PooledBody retain() {
		if (!this.references.tryRetain()) {
			throw new IllegalStateException("Body already released");
		}
		return this;
	}

	/**
	 * Add a reference if the body is still live.
	 * @return {@code true} when a reference was added
	 */
	public boolean tryRetain() {
		return this.references.tryRetain();
	}

	/** Drop a reference; the last gives the chunks back. Extra releases do nothing. */
	public void release() {
		if (this.references.release()) {
			releaseChunks(this.chunkCount);
			if (this.record != null) {
				this.record.bodyReleased();
			}
		}
	}

	/**
	 * Return whether one reference alone is held: the caller's, while it shares none.
	 * @return {@code true} when exactly one reference is held
	 */
	public boolean isOnlyReference() {
		return this.references.isOnly();
	}

	/**
	 * Give the chunks wholly before a position back early, for the only reference's
	 * holder, reading start to end and sharing the body with nobody; the last stays.
	 * @param position where the bytes still needed start
	 */
	public void releaseBefore(long position) {
		if (!isOnlyReference()) {
			throw new IllegalStateException("Body held more than once, or released");
		}
		int before = (int) Math.min(this.chunkCount - 1L, position / this.pool.chunkSize());
		releaseChunks(before);
		if (before > this.releasedChunks) {
			this.releasedChunks = before;
		}
	}

	private void releaseChunks(int before) {
		for (int i = this.releasedChunks; i < before; i++) {
			this.pool.release(chunkAt(i));
			this.chunks[i] = null;
		}
	}

	/**
	 * Return whether the bytes from a position on can still be read.
	 * @param position the offset of a byte in the body
	 * @return {@code false} once {@link #releaseBefore(long)} gave its chunk back
	 */
	public boolean holds(long position) {
		return position / this.pool.chunkSize() >= this.releasedChunks;
	}

	/**
	 * Return whether the chunks were given back.
	 * @return {@code true} once the last reference was released
	 */
	public boolean isReleased() {
		return this.references.isReleased();
	}

	private byte[] chunkAt(int index) {
		byte[] chunk = this.chunks[index];
		if (chunk == null) {
			throw new IllegalStateException(isReleased() ? "Body already released" : "No chunk " + index);
		}
		return chunk;
	}

	private void assertLive() {
		if (isReleased()) {
			throw new IllegalStateException("Body already released");
		}
	}

	/**
	 * Open a stream over the body, holding a reference until closed.
	 * @return the stream
	 */
	public InputStream openStream() {
		retain();
		return new ChunkStream(this);
	}

	/** Takes a range of a body, a chunk's part at a time, read before returning. */
	public interface RangeSink {

		/**
		 * Take bytes of the range.
		 * @param bytes the chunk that holds them
		 * @param offset where they start in it
		 * @param length how many there are
		 */
		void write(byte[] bytes, int offset, int length);

	}

	// Holds a reference to the body until closed.
	private static final class ChunkStream extends InputStream {

		private final PooledBody body;

		private int chunkIndex;

		private int position;

		private boolean closed;

		ChunkStream(PooledBody body) {
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
			// Spring's converters call this: write the chunks themselves, no buffer
			// between.
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
			while (this.chunkIndex < this.body.chunkCount()
					&& this.position == this.body.chunkLength(this.chunkIndex)) {
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

}
