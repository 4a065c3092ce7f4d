package io.github.leanscrape.compression;

import java.nio.charset.StandardCharsets;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * zstd bodies decoded by the reference tool: bodies of many chunks, an empty body,
 * compressors reused from scrape to scrape and after the encoder was closed, every chunk
 * back in the pool.
 */
@Tag(OwnCodeTests.TAG)
class ZstdEncoderTests {

	private static final BodyKind TEXT = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null);

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@Test
	void bodiesOfManyChunksAndNoneAreDecodedByTheZstdTool() {
		ZstdEncoder encoder = new ZstdEncoder(this.pool, 1, false);
		for (byte[] plain : new byte[][] { text(100_000), new byte[0], text(4096), text(3) }) {
			// Twice: the second time with a compressor that already wrote a frame.
			for (int i = 0; i < 2; i++) {
				assertThat(DecodingTools.zstd(encode(encoder, plain))).isEqualTo(plain);
			}
		}
		encoder.close();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void anEncoderStillEncodesAfterItWasClosed() {
		ZstdEncoder encoder = new ZstdEncoder(this.pool, 3, false);
		byte[] plain = text(20_000);
		encode(encoder, plain);
		encoder.close();
		assertThat(DecodingTools.zstd(encode(encoder, plain))).isEqualTo(plain);
		assertThat(this.pool.chunksInUse()).isZero();
	}

	private byte[] encode(ZstdEncoder encoder, byte[] plain) {
		ChunkedOutput output = new ChunkedOutput(this.pool, TEXT, plain.length);
		output.write(plain);
		PooledBody body = output.toBody();
		PooledBody encoded = encoder.encode(body, TEXT.encoded(ContentCoding.ZSTD), 0, false, null, null).body();
		assertThat(encoded.kind().coding()).isEqualTo(ContentCoding.ZSTD);
		byte[] bytes = encoded.toByteArray();
		encoded.release();
		body.release();
		return bytes;
	}

	private static byte[] text(int length) {
		StringBuilder text = new StringBuilder(length + 64);
		for (int i = 0; text.length() < length; i++) {
			text.append("requests_total{uri=\"/api/").append(i % 97).append("\"} ").append(i * 7).append('\n');
		}
		return text.substring(0, length).getBytes(StandardCharsets.US_ASCII);
	}

}
