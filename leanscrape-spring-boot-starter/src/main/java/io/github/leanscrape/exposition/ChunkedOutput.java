package io.github.leanscrape.exposition;

import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An {@link OutputStream} of pooled chunks, never copied to grow. Not thread-safe.
 *
 * @author leanscrape
 */
public final class ChunkedOutput extends OutputStream implements PooledBody.RangeSink {

	// Smaller segments compress worse, each from an empty history.
	private static final long MIN_SEGMENT_BYTES = 32 * 1024;

	private static final long MAX_SEGMENT_BYTES = 256 * 1024;

	private static final long[] NO_SEGMENTS = {};

	private static final byte[] PLUS_INF = { '+', 'I', 'n', 'f' };

	private static final byte[] MINUS_INF = { '-', 'I', 'n', 'f' };

	private static final VarHandle LITTLE_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.LITTLE_ENDIAN);

	private final ChunkPool pool;

	private byte[] @Nullable [] chunks;

	private int chunkCount;

	private byte[] chunk;

	private int position;

	private final BodyKind kind;

	private @Nullable ChunkedOutput parent;

	private int peakChunkCount = 1;

	private int workingChunks;

	private boolean handedOver;

	private final byte[] digits = new byte[20];

	private long[] segmentEnds = NO_SEGMENTS;

	private int segmentCount;

	private final StringBuilder doubleText = new StringBuilder(32);

	private @Nullable RenderRecord record;

	private final @Nullable SegmentObserver segmentObserver;

	private boolean copying;

	/**
	 * Create a buffer expecting about {@code expectedSize} bytes of output.
	 * @param pool the pool to take chunks from
	 * @param kind the kind of body, which the body carries for its size hints
	 * @param expectedSize the expected size, from the last scrape of the same kind
	 */
	public ChunkedOutput(ChunkPool pool, BodyKind kind, long expectedSize) {
		this(pool, kind, expectedSize, null);
	}

	/**
	 * Create a buffer whose segments, as each ends, an observer is told of.
	 * @param pool the pool to take chunks from
	 * @param kind the kind of body, which the body carries for its size hints
	 * @param expectedSize the expected size, from the last scrape of the same kind
	 * @param segmentObserver the observer, or {@code null}
	 */
	public ChunkedOutput(ChunkPool pool, BodyKind kind, long expectedSize, @Nullable SegmentObserver segmentObserver) {
		this.pool = pool;
		this.kind = kind;
		this.segmentObserver = segmentObserver;
		int expectedChunks = (int) Math.min(1 << 20, expectedSize / pool.chunkSize() + 1);
		this.chunks = new byte[Math.max(4, expectedChunks)][];
		this.chunk = pool.acquire();
		this.chunks[this.chunkCount++] = this.chunk;
	}

	@Override
	public void write(int b) {
		if (this.position == this.chunk.length) {
			nextChunk();
		}
		this.chunk[this.position++] = (byte) b;
	}

	@Override
	public void write(byte[] bytes, int offset, int length) {
		while (length > 0) {
			if (this.position == this.chunk.length) {
				nextChunk();
			}
			int n = Math.min(length, this.chunk.length - this.position);
			System.arraycopy(bytes, offset, this.chunk, this.position, n);
			this.position += n;
			offset += n;
			length -= n;
		}
	}

	/**
	 * Write an ASCII string, one byte a character.
	 * @param ascii a string whose characters are all below 128
	 */
	public void writeAscii(String ascii) {
		int length = ascii.length();
		int offset = 0;
		while (offset < length) {
			if (this.position == this.chunk.length) {
				nextChunk();
			}
			int n = Math.min(length - offset, this.chunk.length - this.position);
			// Copies each char's low byte without allocating: exact for ASCII.
			ascii.getBytes(offset, offset + n, this.chunk, this.position);
			this.position += n;
			offset += n;
		}
	}

	// Narrowed: writing to chunks throws no IOException.
	@Override
	public void write(byte[] bytes) {
		write(bytes, 0, bytes.length);
	}

	/**
	 * Write a long in decimal, as {@link Long#toString(long)} does, without allocating.
	 * @param value the value
	 */
	public void writeLong(long value) {
		if (value == Long.MIN_VALUE) {
			writeAscii("-9223372036854775808");
			return;
		}
		if (value < 0) {
			write('-');
			value = -value;
		}
		int position = this.digits.length;
		do {
			this.digits[--position] = (byte) ('0' + (value % 10));
			value /= 10;
		}
		while (value > 0);
		write(this.digits, position, this.digits.length - position);
	}

	/**
	 * Write a double as client_java's text writers do ({@code +Inf}, Double.toString).
	 * @param value the value
	 */
	public void writeDouble(double value) {
		if (Double.isInfinite(value)) {
			write((value > 0) ? PLUS_INF : MINUS_INF);
			return;
		}
		// Integers below 10^7 print alike on every JDK; the builder allocates nothing.
		long integral = (long) value;
		if (integral == value && integral > -10_000_000L && integral < 10_000_000L
				&& (integral != 0 || Double.doubleToRawLongBits(value) == 0L)) {
			writeLong(integral);
			write('.');
			write('0');
			return;
		}
		StringBuilder ascii = this.doubleText;
		ascii.setLength(0);
		ascii.append(value);
		int length = ascii.length();
		for (int i = 0; i < length; i++) {
			if (this.position == this.chunk.length) {
				nextChunk();
			}
			this.chunk[this.position++] = (byte) ascii.charAt(i);
		}
	}

	/**
	 * Write a protobuf base-128 varint; negative values take ten bytes, as an int64.
	 * @param value the value
	 */
	public void writeVarint(long value) {
		if (this.chunk.length - this.position >= 10) {
			// Room for the longest varint: no check per byte.
			byte[] chunk = this.chunk;
			int position = this.position;
			while ((value & ~0x7FL) != 0) {
				chunk[position++] = (byte) ((value & 0x7F) | 0x80);
				value >>>= 7;
			}
			chunk[position++] = (byte) value;
			this.position = position;
			return;
		}
		while ((value & ~0x7FL) != 0) {
			write((int) ((value & 0x7F) | 0x80));
			value >>>= 7;
		}
		write((int) value);
	}

	/**
	 * Write eight bytes little-endian, as protobuf's {@code fixed64} and {@code double}.
	 * @param value the bits
	 */
	public void writeFixed64(long value) {
		if (this.chunk.length - this.position >= Long.BYTES) {
			LITTLE_ENDIAN_LONG.set(this.chunk, this.position, value);
			this.position += Long.BYTES;
			return;
		}
		for (int i = 0; i < Long.BYTES; i++) {
			write((int) (value >>> (i * 8)));
		}
	}

	/**
	 * Append what another buffer holds, then clear it.
	 * @param other a buffer of the same pool
	 */
	public void append(ChunkedOutput other) {
		for (int i = 0; i < other.chunkCount - 1; i++) {
			byte[] full = Objects.requireNonNull(other.chunks[i]);
			write(full, 0, full.length);
		}
		write(other.chunk, 0, other.position);
		other.clear();
	}

	/**
	 * Return a new buffer for output appended later, counted in {@link #workingBytes()}.
	 * @return the buffer, to be discarded when done
	 */
	public ChunkedOutput workingBuffer() {
		ChunkedOutput working = new ChunkedOutput(this.pool, this.kind, 0);
		working.parent = this;
		return working;
	}

	/**
	 * Return the most bytes that discarded working buffers held at once.
	 * @return the bytes, in whole chunks
	 */
	public long workingBytes() {
		return (long) this.workingChunks * this.pool.chunkSize();
	}

	/**
	 * End a segment here, if long enough, when the place's key is one chosen to.
	 * @param place the key of the place
	 */
	public void endSegmentAt(int place) {
		// One place in four, chosen by key: content-defined (docs/design.md, step 7).
		long length = size() - lastSegmentEnd();
		if (length >= MIN_SEGMENT_BYTES && (length >= MAX_SEGMENT_BYTES || (mix(place) & 3) == 0)) {
			endSegment(1);
		}
	}

	// MurmurHash3's finalizer: a family's blocks have keys one apart.
	private static int mix(int key) {
		int h = key;
		h ^= h >>> 16;
		h *= 0x85ebca6b;
		h ^= h >>> 13;
		h *= 0xc2b2ae35;
		h ^= h >>> 16;
		return h;
	}

	/**
	 * End a segment here if at least {@code minBytes} were written since the last.
	 * @param minBytes the least size of a segment
	 */
	public void endSegment(long minBytes) {
		assertNotHandedOver();
		long size = size();
		long last = lastSegmentEnd();
		if (size - last < minBytes || size == last) {
			return;
		}
		if (this.segmentCount == this.segmentEnds.length) {
			this.segmentEnds = Arrays.copyOf(this.segmentEnds, Math.max(16, this.segmentCount * 2));
		}
		this.segmentEnds[this.segmentCount++] = size;
		if (this.segmentObserver != null) {
			this.segmentObserver.segmentEnded(this, last, size);
		}
	}

	/**
	 * Append a range of a body.
	 * @param body the body
	 * @param start where the range starts
	 * @param length its length
	 */
	public void copy(PooledBody body, long start, long length) {
		this.copying = true;
		try {
			body.writeRange(start, length, this);
		}
		finally {
			this.copying = false;
		}
	}

	private long lastSegmentEnd() {
		return (this.segmentCount > 0) ? this.segmentEnds[this.segmentCount - 1] : 0;
	}

	/**
	 * Return whether a range of what was written equals a range of a body.
	 * @param start where the range of this output starts
	 * @param other the body, which {@linkplain PooledBody#holds holds} its range
	 * @param otherStart where the range of the body starts
	 * @param length the length of both ranges, within what was written
	 * @return {@code true} when the bytes are equal
	 */
	public boolean rangeEquals(long start, PooledBody other, long otherStart, long length) {
		int chunkSize = this.pool.chunkSize();
		long done = 0;
		while (done < length) {
			long here = start + done;
			int offset = (int) (here % chunkSize);
			int n = (int) Math.min(length - done, chunkSize - offset);
			byte[] chunk = Objects.requireNonNull(this.chunks[(int) (here / chunkSize)]);
			if (!other.rangeEquals(otherStart + done, chunk, offset, n)) {
				return false;
			}
			done += n;
		}
		return true;
	}

	private void clear() {
		assertNotHandedOver();
		this.segmentCount = 0;
		releaseChunks(1);
		this.chunk = Objects.requireNonNull(this.chunks[0]);
		this.chunkCount = 1;
		this.position = 0;
	}

	/**
	 * Return how many bytes have been written.
	 * @return the size of the output so far
	 */
	public long size() {
		return (long) (this.chunkCount - 1) * this.pool.chunkSize() + this.position;
	}

	private void nextChunk() {
		// Offer the core to the application's requests once a chunk (< 1 ms of work).
		Thread.yield();
		if (this.chunkCount == this.chunks.length) {
			this.chunks = Arrays.copyOf(this.chunks, this.chunks.length * 2);
		}
		if (this.segmentObserver != null && !this.copying) {
			// Before acquiring, so a chunk given back can be reused; not while a body's
			// chunk, which the observer may give back, is being copied.
			this.segmentObserver.chunkFilled(size());
		}
		this.chunk = this.pool.acquire();
		this.chunks[this.chunkCount++] = this.chunk;
		this.peakChunkCount = Math.max(this.peakChunkCount, this.chunkCount);
		this.position = 0;
	}

	/**
	 * Attach a record to the body, told when the body (or this, if discarded) is gone.
	 * @param record the record
	 */
	public void setRecord(RenderRecord record) {
		assertNotHandedOver();
		this.record = record;
	}

	/**
	 * Hand the chunks over to a body; the buffer is not used afterwards.
	 * @return the body
	 */
	public PooledBody toBody() {
		assertNotHandedOver();
		long last = lastSegmentEnd();
		if (this.segmentObserver != null && (this.segmentCount == 0 || last < size())) {
			this.segmentObserver.segmentEnded(this, last, size());
		}
		// Handed over once the body exists: if that fails, discard() gives chunks back.
		PooledBody body = new PooledBody(this.pool, this.kind, this.chunks, this.chunkCount, this.position,
				this.segmentEnds, this.segmentCount, this.record);
		this.handedOver = true;
		return body;
	}

	/** Give the chunks back to the pool, unless handed over or discarded already. */
	public void discard() {
		if (this.handedOver) {
			return;
		}
		this.handedOver = true;
		if (this.record != null) {
			this.record.bodyReleased();
		}
		if (this.parent != null) {
			this.parent.workingChunks = Math.max(this.parent.workingChunks, this.peakChunkCount);
		}
		releaseChunks(0);
	}

	private void releaseChunks(int from) {
		for (int i = from; i < this.chunkCount; i++) {
			this.pool.release(Objects.requireNonNull(this.chunks[i]));
			this.chunks[i] = null;
		}
	}

	private void assertNotHandedOver() {
		if (this.handedOver) {
			throw new IllegalStateException("Buffer already handed over or discarded");
		}
	}

}
