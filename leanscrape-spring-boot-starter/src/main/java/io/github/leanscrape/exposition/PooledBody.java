package io.github.leanscrape.exposition;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * A finished body: a read-only view over pooled chunks, written to the response chunk by
 * chunk so that nothing copies it into one large array.
 * <p>
 * The chunks go back to the pool when the last reference is released. The body starts
 * with one reference, owned by whoever answers the request; every stream opened by
 * {@link #openStream()} holds another one until it is closed. {@link #retain()} adds a
 * reference for another reader of the same body.
 *
 * @author leanscrape
 */
public final class PooledBody {

	private static final long[] NO_SEGMENTS = {};

	private final ChunkPool pool;

	private final BodyKind kind;

	/**
	 * The slots below {@link #chunkCount} hold the chunks until they go back to the pool.
	 */
	private final byte[] @Nullable [] chunks;

	private final int chunkCount;

	private final int lastChunkLength;

	private final long length;

	private final ReferenceCount references = new ReferenceCount();

	/**
	 * How many chunks from the first went back to the pool ahead of the body
	 * ({@link #releaseBefore}). Written by the holder of the only reference only.
	 */
	private volatile int releasedChunks;

	/** Where each segment ends, below {@link #segmentMarks}; the last ends the body. */
	private final long[] segmentEnds;

	private final int segmentMarks;

	/** What the renderer noted while writing this body, if anything. */
	private final @Nullable RenderRecord record;

	PooledBody(ChunkPool pool, BodyKind kind, byte[] @Nullable [] chunks, int chunkCount, int lastChunkLength) {
		this(pool, kind, chunks, chunkCount, lastChunkLength, NO_SEGMENTS, 0, null);
	}

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
	 * @return the record, or {@code null} when the renderer noted nothing
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
	 * @return the kind, as given to the {@link ChunkedOutput}
	 */
	public BodyKind kind() {
		return this.kind;
	}

	/**
	 * Return how many segments the body has: the pieces between the places its renderer
	 * marked, which stay put from scrape to scrape while the meters stay the same, and
	 * which a compressor may compress one by one, each on its own. A body without marks
	 * is one segment.
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

	/**
	 * Return whether a range of this body holds the same bytes as a range of another.
	 * @param start where the range of this body starts
	 * @param other the other body
	 * @param otherStart where the range of the other body starts
	 * @param length the length of both ranges
	 * @return {@code true} when the bytes are equal
	 */
	public boolean rangeEquals(long start, PooledBody other, long otherStart, long length) {
		assertLive();
		long done = 0;
		while (done < length) {
			long here = start + done;
			int chunk = chunkIndex(here);
			int offset = chunkOffset(here);
			int n = (int) Math.min(length - done, chunkLength(chunk) - offset);
			if (!other.rangeEquals(otherStart + done, chunkAt(chunk), offset, n)) {
				return false;
			}
			done += n;
		}
		return true;
	}

	/**
	 * Return whether a range of this body holds the same bytes as part of an array.
	 * @param start where the range of this body starts
	 * @param bytes the array
	 * @param offset where its part starts
	 * @param length the length of both
	 * @return {@code true} when the bytes are equal
	 */
	public boolean rangeEquals(long start, byte[] bytes, int offset, int length) {
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
	 * Give a range of this body to a sink, each chunk's part of it in turn: to an output,
	 * which copies it, or to a compressor.
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

	/**
	 * Return the chunk that holds a byte.
	 * @param position the byte's offset in the body
	 * @return the chunk's index
	 */
	public int chunkIndex(long position) {
		return (int) (position / this.pool.chunkSize());
	}

	/**
	 * Return where in its chunk a byte is.
	 * @param position the byte's offset in the body
	 * @return the offset in the chunk {@link #chunkIndex(long)} names
	 */
	public int chunkOffset(long position) {
		return (int) (position % this.pool.chunkSize());
	}

	/**
	 * Return how many chunks this body still holds: none once released, fewer once some
	 * went back ahead of it ({@link #releaseBefore(long)}).
	 * @return the chunks
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
	 * Return a chunk of this body. Only valid while a reference is held; never modify it.
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
	 * Copy the body into a new array. Meant for callers that need a {@code byte[]}; the
	 * web path never calls it.
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
	 * @return {@code true} when a reference was added, {@code false} when the body was
	 * already released
	 */
	public boolean tryRetain() {
		return this.references.tryRetain();
	}

	/**
	 * Drop a reference; the last one gives the chunks back to the pool. Releasing more
	 * often than retained does nothing.
	 */
	public void release() {
		if (this.references.release()) {
			for (int i = this.releasedChunks; i < this.chunkCount; i++) {
				this.pool.release(chunkAt(i));
				this.chunks[i] = null;
			}
			if (this.record != null) {
				this.record.bodyReleased();
			}
		}
	}

	/**
	 * Return whether one reference alone holds this body: that of the caller, where it
	 * holds one. Only the caller's code can keep it so: a reference is taken from one
	 * already held ({@link #retain()}), so a holder that hands this body to nobody else
	 * stays its only one.
	 * @return {@code true} when exactly one reference is held
	 */
	public boolean isOnlyReference() {
		return this.references.isOnly();
	}

	/**
	 * Give the chunks wholly before a position back to the pool now, ahead of the rest,
	 * for the holder of the only reference ({@link #isOnlyReference()}), which reads this
	 * body from start to end and needs them no more. The bytes before the chunk holding
	 * {@code position} can no longer be read ({@link #holds(long)}); the last chunk stays
	 * until the body is released. That holder hands the body to no other reader
	 * afterwards.
	 * @param position where the bytes still needed start
	 */
	public void releaseBefore(long position) {
		if (!isOnlyReference()) {
			throw new IllegalStateException("Body held more than once, or released");
		}
		int before = (int) Math.min(this.chunkCount - 1L, position / this.pool.chunkSize());
		for (int i = this.releasedChunks; i < before; i++) {
			this.pool.release(chunkAt(i));
			this.chunks[i] = null;
		}
		if (before > this.releasedChunks) {
			this.releasedChunks = before;
		}
	}

	/**
	 * Return whether the bytes from a position on can still be read: none went back to
	 * the pool ahead of the body ({@link #releaseBefore(long)}).
	 * @param position the offset of a byte in the body
	 * @return {@code true} when it and every byte after it can be read
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
			// The slots are cleared once the chunks went back to the pool.
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
	 * Open a stream over the body, for a reader that needs one. The stream holds a
	 * reference until it is closed.
	 * @return the stream
	 */
	public InputStream openStream() {
		retain();
		return new PooledBodyStream(this);
	}

	/**
	 * Where the bytes of a range of a body go ({@link #writeRange}), a chunk's part at a
	 * time: the array is the body's own, to be read before the call returns.
	 */
	public interface RangeSink {

		/**
		 * Take bytes of the range.
		 * @param bytes the chunk that holds them
		 * @param offset where they start in it
		 * @param length how many there are
		 */
		void write(byte[] bytes, int offset, int length);

	}

}
