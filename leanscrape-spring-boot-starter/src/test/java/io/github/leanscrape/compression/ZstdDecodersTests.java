package io.github.leanscrape.compression;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import com.github.luben.zstd.ZstdInputStream;
import com.sun.net.httpserver.HttpServer;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The zstd decoders a user has at hand, given a body of one frame (the default) and one
 * of a frame per segment ({@code leanscrape.compression.zstd.frame-per-segment}): the
 * {@code zstd} tool, {@code curl --compressed}, zstd-jni's stream and python-zstandard's
 * stream reader (Debian's {@code python3-zstandard}) read every frame; python-zstandard's
 * one-shot {@code decompress} and {@code decompressobj} return the first frame only,
 * without an error. Should a decoder change, this test fails and README's list of
 * decoders must change with it.
 */
@Tag(OwnCodeTests.TAG)
class ZstdDecodersTests {

	private static final BodyKind KIND = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null)
		.encoded(ContentCoding.ZSTD);

	private final ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, 1 << 24);

	private final ZstdEncoder encoder = new ZstdEncoder(this.pool, 1, true);

	private final byte[] plain = body(new Random(1));

	@AfterEach
	void close() {
		this.encoder.close();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void oneFrameIsReadWholeByEveryDecoder() throws Exception {
		byte[] zstd = encode(false);
		assertThat(DecodingTools.zstdFrames(zstd)).isOne();
		assertThat(DecodingTools.zstd(zstd)).as("zstd -d").isEqualTo(this.plain);
		assertThat(curl(zstd)).as("curl --compressed").isEqualTo(this.plain);
		assertThat(zstdJniStream(zstd)).as("zstd-jni's ZstdInputStream").isEqualTo(this.plain);
		assertThat(python(zstd, "ZstdDecompressor().decompress(data)")).as("python-zstandard, decompress")
			.isEqualTo(this.plain);
		assertThat(python(zstd, "ZstdDecompressor().decompressobj().decompress(data)"))
			.as("python-zstandard, decompressobj")
			.isEqualTo(this.plain);
		assertThat(python(zstd, "ZstdDecompressor().stream_reader(io.BytesIO(data)).read()"))
			.as("python-zstandard, stream_reader")
			.isEqualTo(this.plain);
	}

	@Test
	void aFramePerSegmentIsReadWholeBySomeDecodersOnly() throws Exception {
		byte[] zstd = encode(true);
		assertThat(DecodingTools.zstdFrames(zstd)).isGreaterThan(10);
		assertThat(DecodingTools.zstd(zstd)).as("zstd -d").isEqualTo(this.plain);
		assertThat(curl(zstd)).as("curl --compressed").isEqualTo(this.plain);
		assertThat(zstdJniStream(zstd)).as("zstd-jni's ZstdInputStream").isEqualTo(this.plain);
		assertThat(python(zstd, "ZstdDecompressor().stream_reader(io.BytesIO(data)).read()"))
			.as("python-zstandard, stream_reader")
			.isEqualTo(this.plain);
		// The first frame only, silently: why frames per segment are off by default.
		byte[] firstFrame = python(zstd, "ZstdDecompressor().decompress(data)");
		assertThat(firstFrame.length).as("python-zstandard, decompress").isLessThan(this.plain.length / 4);
		assertThat(this.plain).startsWith(firstFrame);
		assertThat(python(zstd, "ZstdDecompressor().decompressobj().decompress(data)"))
			.as("python-zstandard, decompressobj")
			.isEqualTo(firstFrame);
	}

	private byte[] encode(boolean framePerSegment) {
		ChunkedOutput output = new ChunkedOutput(this.pool, KIND, 0);
		int place = 0;
		for (int i = 0; i < this.plain.length; i++) {
			output.write(this.plain[i]);
			if (this.plain[i] == '\n') {
				output.endSegmentAt(place++);
			}
		}
		PooledBody body = output.toBody();
		try {
			EncodedBody encoded = this.encoder.encode(body, KIND, 0, framePerSegment, null, null);
			try {
				return encoded.body().toByteArray();
			}
			finally {
				encoded.body().release();
			}
		}
		finally {
			body.release();
		}
	}

	private static byte[] zstdJniStream(byte[] zstd) throws IOException {
		try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(zstd))) {
			return in.readAllBytes();
		}
	}

	/**
	 * Serve the body with {@code Content-Encoding: zstd} on loopback and fetch it with
	 * {@code curl --compressed}.
	 */
	private static byte[] curl(byte[] zstd) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", (exchange) -> {
			exchange.getResponseHeaders().add("Content-Encoding", "zstd");
			exchange.sendResponseHeaders(200, zstd.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(zstd);
			}
		});
		server.start();
		try {
			return DecodingTools.curlCompressed("http://127.0.0.1:" + server.getAddress().getPort() + "/",
					"Accept-Encoding: zstd");
		}
		finally {
			server.stop(0);
		}
	}

	/**
	 * Decode with Debian's python-zstandard ({@code /usr/bin/python3}, package
	 * {@code python3-zstandard}), as {@code expression} over {@code data} does.
	 */
	private static byte[] python(byte[] zstd, String expression) {
		String script = "import io, sys\n" + "from zstandard import ZstdDecompressor\n"
				+ "data = sys.stdin.buffer.read()\n" + "sys.stdout.buffer.write(" + expression + ")\n";
		return DecodingTools.python(zstd, script);
	}

	private static byte[] body(Random random) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < 40_000; i++) {
			text.append("http_server_requests_seconds_count{method=\"GET\",uri=\"/api/")
				.append(i)
				.append("\"} ")
				.append(random.nextInt(1000))
				.append('\n');
		}
		return text.toString().getBytes(StandardCharsets.US_ASCII);
	}

}
