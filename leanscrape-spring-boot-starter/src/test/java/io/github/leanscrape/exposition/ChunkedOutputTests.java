package io.github.leanscrape.exposition;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The number formatting of {@link ChunkedOutput} against the JDK's own, on this JVM.
 */
@Tag(OwnCodeTests.TAG)
class ChunkedOutputTests {

	private static final double[] EDGES = { 0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-3, 1e-4, 1e-5, 9_999_999.0, -9_999_999.0,
			1e7, -1e7, 10_000_001.0, 1.0E23, 2e23, 9.007199254740993E15, Double.MIN_VALUE, -Double.MIN_VALUE,
			Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
			Double.NEGATIVE_INFINITY, 1.0 / 3, 2.0 / 3, 123_456_789.0, 0.001048576, 4.2273788502251054E18,
			Long.MAX_VALUE, Long.MIN_VALUE, (double) (1L << 53) };

	@Test
	void doublesPrintAsClientJavaPrintsThem() {
		ChunkPool pool = new ChunkPool(1024, 1 << 20);
		SplittableRandom random = new SplittableRandom(42);
		StringBuilder expected = new StringBuilder();
		ChunkedOutput buffer = new ChunkedOutput(pool, BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null), 0);
		for (double value : EDGES) {
			write(value, buffer, expected);
		}
		for (int i = 0; i < 2_000_000; i++) {
			double value = switch (i % 5) {
				// any bit pattern
				case 0 -> Double.longBitsToDouble(random.nextLong());
				// integral values around the direct path's bound
				case 1 -> (double) (random.nextLong(40_000_000) - 20_000_000);
				// small decimals
				case 2 -> random.nextInt(100_000) / 1000.0;
				// the magnitudes metrics have
				case 3 -> random.nextDouble() * Math.pow(10, random.nextInt(-12, 20));
				default -> -random.nextDouble();
			};
			write(value, buffer, expected);
		}
		PooledBody body = buffer.toBody();
		assertThat(new String(body.toByteArray(), StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
		body.release();
		assertThat(pool.chunksInUse()).isZero();
	}

	@Test
	void aBodyHeldOnceGivesBackTheChunksBeforeAPositionAndTheRestWhenReleased() {
		ChunkPool pool = new ChunkPool(64, 1 << 20);
		ChunkedOutput output = new ChunkedOutput(pool, BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null), 0);
		for (int i = 0; i < 640; i++) {
			output.write('a' + i % 26);
		}
		PooledBody body = output.toBody();
		assertThat(pool.chunksInUse()).isEqualTo(10);
		assertThat(body.isOnlyReference()).isTrue();
		body.retain();
		assertThat(body.isOnlyReference()).as("another holder reads it too").isFalse();
		assertThatIllegalStateException().isThrownBy(() -> body.releaseBefore(300));
		body.release();
		assertThat(body.isOnlyReference()).isTrue();
		body.releaseBefore(300);
		assertThat(pool.chunksInUse()).isEqualTo(6);
		assertThat(body.heldChunks()).isEqualTo(6);
		assertThat(body.holds(255)).isFalse();
		assertThat(body.holds(256)).isTrue();
		assertThat(body.rangeEquals(256, "wxyzabcd".getBytes(StandardCharsets.US_ASCII), 0, 8)).isTrue();
		assertThatIllegalStateException().isThrownBy(() -> body.chunk(3));
		body.releaseBefore(100);
		assertThat(pool.chunksInUse()).isEqualTo(6);
		body.releaseBefore(10_000);
		assertThat(pool.chunksInUse()).as("the last chunk stays until the body is released").isEqualTo(1);
		body.release();
		assertThat(pool.chunksInUse()).isZero();
	}

	@Test
	void longsPrintAsLongToString() {
		ChunkPool pool = new ChunkPool(64, 1 << 20);
		ChunkedOutput buffer = new ChunkedOutput(pool, BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null), 0);
		StringBuilder expected = new StringBuilder();
		long[] values = { 0, 1, -1, 9, 10, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1,
				1_000_000_000_000L };
		for (long value : values) {
			buffer.writeLong(value);
			buffer.write('\n');
			expected.append(value).append('\n');
		}
		PooledBody body = buffer.toBody();
		assertThat(new String(body.toByteArray(), StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
		body.release();
	}

	private static void write(double value, ChunkedOutput buffer, StringBuilder expected) {
		buffer.writeDouble(value);
		buffer.write('\n');
		String text = (value == Double.POSITIVE_INFINITY) ? "+Inf"
				: (value == Double.NEGATIVE_INFINITY) ? "-Inf" : Double.toString(value);
		expected.append(text).append('\n');
	}

}
