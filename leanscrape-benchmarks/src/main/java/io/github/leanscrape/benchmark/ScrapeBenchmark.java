package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.endpoint.PendingScrapeResource;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.ScrapeResponse;
import io.github.leanscrape.web.AcceptEncoding;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.io.Resource;

/**
 * One whole scrape, as the web layer asks for it, by Spring Boot's endpoint and by
 * leanscrape's, on the same registry ({@link ScrapeState}) in the same run.
 * <p>
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes allocated per
 * scrape, the figure leanscrape exists to lower; the benchmark gate compares it between
 * the two. {@link ScrapeStagesBenchmark} splits both paths into their stages.
 *
 * @author leanscrape
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class ScrapeBenchmark {

	/**
	 * Spring Boot's {@code PrometheusScrapeEndpoint.scrape(format, null)}: collect the
	 * registry's snapshots, write them into a new {@code ByteArrayOutputStream} sized
	 * from the previous scrape, copy that into the {@code byte[]} of the response. The
	 * array is then written to the sink, as a message converter writes it to the socket.
	 * @param state the registry and endpoints
	 * @return the response
	 */
	@Benchmark
	public Object boot(ScrapeState state) {
		WebEndpointResponse<byte[]> response = state.bootEndpoint().scrape(state.outputFormat(), null);
		byte[] body = response.getBody();
		state.sink.write(body, 0, body.length);
		return response;
	}

	/**
	 * leanscrape's whole path as the web layer runs it: the web operation
	 * ({@code LeanscrapeScrapeEndpoint.scrapeBody(format, null)}) hands over a pending
	 * scrape, the responder serves it (rendering into pooled chunks) and records it in
	 * the starter's own metrics, the body is written to the sink chunk by chunk and
	 * released, as the starter's message writers do once the response is sent.
	 * @param state the registry and endpoints
	 * @return the response
	 * @throws IOException never: the sink does not fail
	 */
	@Benchmark
	public Object leanscrape(ScrapeState state) throws IOException {
		return scrapeWithStarter(state);
	}

	static Object scrapeWithStarter(ScrapeState state) throws IOException {
		LeanscrapeStarter starter = state.leanscrape();
		return scrapeWithStarter(starter.endpoint(), starter.responder(), state.outputFormat(), state.sink);
	}

	/**
	 * One scrape through the starter's whole path but HTTP, written to a sink.
	 * @param endpoint the starter's endpoint
	 * @param responder the starter's responder
	 * @param format the format asked for
	 * @param sink where the body goes
	 * @return the response
	 * @throws IOException never for a sink that does not fail
	 */
	static Object scrapeWithStarter(LeanscrapeScrapeEndpoint endpoint, ScrapeResponder responder,
			PrometheusOutputFormat format, OutputStream sink) throws IOException {
		return scrapeWithStarter(endpoint, responder, format, null, sink);
	}

	/**
	 * One scrape through the starter's whole path but HTTP, in the content coding a
	 * scraper accepts, written to a sink as sent.
	 * @param endpoint the starter's endpoint
	 * @param responder the starter's responder
	 * @param format the format asked for
	 * @param acceptEncoding the request's Accept-Encoding values, or {@code null}
	 * @param sink where the body goes
	 * @return the response
	 * @throws IOException never for a sink that does not fail
	 */
	static Object scrapeWithStarter(LeanscrapeScrapeEndpoint endpoint, ScrapeResponder responder,
			PrometheusOutputFormat format, @Nullable List<String> acceptEncoding, OutputStream sink)
			throws IOException {
		WebEndpointResponse<Resource> response = endpoint.scrapeBody(format, null);
		PendingScrapeResource resource = (PendingScrapeResource) response.getBody();
		// Chosen here, as the web layer chooses it for each request.
		ScrapeResponse served = responder.respond(resource.pending(),
				AcceptEncoding.choose(acceptEncoding, responder.codings()), null);
		try {
			PooledBody body = served.body();
			if (body != null) {
				body.writeTo(sink);
			}
		}
		finally {
			responder.finish(served, false);
		}
		return response;
	}

}
