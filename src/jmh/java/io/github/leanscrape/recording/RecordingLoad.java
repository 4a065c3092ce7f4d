package io.github.leanscrape.recording;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * End-to-end cost of recording {@code http.server.requests}: a trivial Spring MVC
 * endpoint on Tomcat under a closed-loop load, in four configurations, each in a fresh
 * server JVM:
 * <ul>
 * <li>{@code default}: Spring Boot's default meter observation handler
 * ({@code leanscrape.recording.enabled=false});</li>
 * <li>{@code leanscrape}: the starter's handler;</li>
 * <li>{@code direct}: the starter's handler and
 * {@code leanscrape.recording.direct-server-requests=true};</li>
 * <li>{@code disabled}: the observation turned off
 * ({@code management.observations.enable.http.server.requests=false}).</li>
 * </ul>
 * The client keeps {@code -Dconnections} keep-alive connections busy with raw-socket
 * {@code GET /hello} requests (little CPU of its own), ignores {@code -Dwarmup} seconds,
 * then counts responses for {@code -Dmeasure} seconds. The server reports the bytes its
 * threads allocated ({@code ThreadMXBean}) at both ends of the measured window.
 * Configurations run in turn, {@code -Drounds} times. Run after
 * {@code ./mvnw -Pjmh test-compile dependency:build-classpath -Dmdep.outputFile=target/jmh.classpath -Dmdep.includeScope=test}:
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/jmh.classpath) io.github.leanscrape.recording.RecordingLoad
 * </pre>
 */
public final class RecordingLoad {

	private static final String[] MODES = { "default", "leanscrape", "direct", "disabled" };

	private static final int DEFAULT = 0;

	private static final int DISABLED = 3;

	private RecordingLoad() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 2 && args[0].equals("server")) {
			serve(args[1]);
			return;
		}
		int rounds = Integer.getInteger("rounds", 2);
		int warmup = Integer.getInteger("warmup", 10);
		int measure = Integer.getInteger("measure", 10);
		int connections = Integer.getInteger("connections", 8);
		String heap = System.getProperty("heap", "512m");
		double[][] throughput = new double[MODES.length][rounds];
		double[][] bytes = new double[MODES.length][rounds];
		double[][] cpu = new double[MODES.length][rounds];
		for (int round = 0; round < rounds; round++) {
			for (int mode = 0; mode < MODES.length; mode++) {
				double[] result = run(MODES[mode], heap, connections, warmup, measure);
				throughput[mode][round] = result[0];
				bytes[mode][round] = result[1];
				cpu[mode][round] = result[2];
				System.out.printf(Locale.ROOT, "round %d %-10s %9.0f req/s %8.0f B/req %7.2f us CPU/req%n",
						round + 1, MODES[mode], result[0], result[1], result[2]);
			}
		}
		System.out.printf(Locale.ROOT, "%n%-10s %10s %10s %14s%n", "handler", "req/s", "B/req", "us CPU/req");
		double[] meanThroughput = new double[MODES.length];
		double[] meanCpu = new double[MODES.length];
		for (int mode = 0; mode < MODES.length; mode++) {
			meanThroughput[mode] = mean(throughput[mode]);
			meanCpu[mode] = mean(cpu[mode]);
			System.out.printf(Locale.ROOT, "%-10s %10.0f %10.0f %14.2f%n", MODES[mode], meanThroughput[mode],
					mean(bytes[mode]), meanCpu[mode]);
		}
		double cost = meanThroughput[DISABLED] - meanThroughput[DEFAULT];
		double cpuCost = meanCpu[DEFAULT] - meanCpu[DISABLED];
		System.out.printf(Locale.ROOT, "%nwhat instrumentation costs: %.0f req/s, %.2f us of server CPU per request%n",
				cost, cpuCost);
		for (int mode = DEFAULT + 1; mode < DISABLED; mode++) {
			double recovered = meanThroughput[mode] - meanThroughput[DEFAULT];
			double cpuRecovered = meanCpu[DEFAULT] - meanCpu[mode];
			System.out.printf(Locale.ROOT, "recovered by %s: %.0f req/s (%.0f%%), %.2f us CPU (%.0f%%)%n",
					MODES[mode], recovered, 100 * recovered / cost, cpuRecovered, 100 * cpuRecovered / cpuCost);
		}
	}

	private static double mean(double[] values) {
		double sum = 0;
		for (double value : values) {
			sum += value;
		}
		return sum / values.length;
	}

	private static double[] run(String mode, String heap, int connections, int warmup, int measure)
			throws Exception {
		Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		Process server = new ProcessBuilder(java.toString(), "-Xms" + heap, "-Xmx" + heap, "-cp",
				System.getProperty("java.class.path"), RecordingLoad.class.getName(), "server", mode)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			int port = awaitPort(server);
			Client client = new Client(port, connections);
			client.start();
			Thread.sleep(warmup * 1000L);
			long allocatedBefore = read(port, "/allocated");
			long cpuBefore = read(port, "/cpu");
			long countBefore = client.count();
			long start = System.nanoTime();
			Thread.sleep(measure * 1000L);
			long countAfter = client.count();
			long elapsed = System.nanoTime() - start;
			long cpuAfter = read(port, "/cpu");
			long allocatedAfter = read(port, "/allocated");
			client.stop();
			long requests = countAfter - countBefore;
			return new double[] { requests * 1e9 / elapsed, (double) (allocatedAfter - allocatedBefore) / requests,
					(cpuAfter - cpuBefore) / 1e3 / requests };
		}
		finally {
			server.destroy();
			server.waitFor();
		}
	}

	private static int awaitPort(Process server) throws IOException {
		BufferedReader reader = new BufferedReader(
				new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII));
		String line;
		while ((line = reader.readLine()) != null) {
			if (line.startsWith("PORT ")) {
				return Integer.parseInt(line.substring(5).trim());
			}
		}
		throw new IllegalStateException("The server ended before it told its port");
	}

	private static long read(int port, String path) throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			Exchange exchange = new Exchange(socket, path);
			return Long.parseLong(exchange.send());
		}
	}

	private static void serve(String mode) {
		List<String> properties = new ArrayList<>(List.of("spring.main.web-application-type=servlet", "server.port=0",
				"spring.main.banner-mode=off", "logging.level.root=warn",
				"management.metrics.use-global-registry=false",
				// Keep connections open: Tomcat closes one after 100 requests by default.
				"server.tomcat.max-keep-alive-requests=-1"));
		switch (mode) {
			case "default" -> properties.add("leanscrape.recording.enabled=false");
			case "leanscrape" -> properties.add("leanscrape.recording.enabled=true");
			case "direct" -> {
				properties.add("leanscrape.recording.enabled=true");
				properties.add("leanscrape.recording.direct-server-requests=true");
			}
			case "disabled" -> {
				properties.add("leanscrape.recording.enabled=false");
				properties.add("management.observations.enable.http.server.requests=false");
			}
			default -> throw new IllegalArgumentException(mode);
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(LoadApplication.class)
			.properties(properties.toArray(String[]::new))
			.run();
		if (mode.equals("direct") && !recordsDirectly(context)) {
			throw new IllegalStateException("The direct mode does not record directly");
		}
		System.out.println("PORT " + context.getEnvironment().getProperty("local.server.port"));
		System.out.flush();
	}

	private static boolean recordsDirectly(ConfigurableApplicationContext context) {
		for (FilterRegistrationBean<?> registration : context.getBeansOfType(FilterRegistrationBean.class).values()) {
			if (registration.getFilter() instanceof DirectServerRequestRecordingFilter filter) {
				return filter.isRecordingDirectly();
			}
		}
		return false;
	}

	/**
	 * The server: one trivial endpoint, and one that tells the bytes allocated so far by
	 * all live threads.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	// Spring Security is on the test class path (for the security tests): the load server is
	// open, as an application without it would be.
	@EnableAutoConfiguration(excludeName = { "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration" })
	@RestController
	static class LoadApplication {

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

		@GetMapping("/allocated")
		String allocated() {
			com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
				.getThreadMXBean();
			long total = 0;
			for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
				if (bytes > 0) {
					total += bytes;
				}
			}
			return Long.toString(total);
		}

		@GetMapping("/cpu")
		String cpu() {
			return Long.toString(((com.sun.management.OperatingSystemMXBean) ManagementFactory
				.getOperatingSystemMXBean()).getProcessCpuTime());
		}

	}

	/**
	 * Closed-loop load: one thread per keep-alive connection, each sending its next
	 * request when the previous answer has arrived.
	 */
	static final class Client {

		private final int port;

		private final Thread[] threads;

		private final AtomicLongArray counts;

		private volatile boolean running = true;

		Client(int port, int connections) {
			this.port = port;
			this.threads = new Thread[connections];
			// One counter per thread, 16 longs apart so that they do not share a cache line.
			this.counts = new AtomicLongArray(connections * 16);
		}

		void start() {
			for (int i = 0; i < this.threads.length; i++) {
				int slot = i * 16;
				this.threads[i] = new Thread(() -> loop(slot), "load-" + i);
				this.threads[i].setDaemon(true);
				this.threads[i].start();
			}
		}

		private void loop(int slot) {
			try (Socket socket = new Socket("localhost", this.port)) {
				socket.setTcpNoDelay(true);
				Exchange exchange = new Exchange(socket, "/hello");
				while (this.running) {
					exchange.sendDiscarding();
					this.counts.lazySet(slot, this.counts.get(slot) + 1);
				}
			}
			catch (IOException ex) {
				if (this.running) {
					throw new IllegalStateException(ex);
				}
			}
		}

		long count() {
			long total = 0;
			for (int i = 0; i < this.threads.length; i++) {
				total += this.counts.get(i * 16);
			}
			return total;
		}

		void stop() throws InterruptedException {
			this.running = false;
			for (Thread thread : this.threads) {
				thread.join(5000);
			}
		}

	}

	/**
	 * One HTTP/1.1 request-response over a kept-alive socket, with a reused buffer. Knows
	 * just enough HTTP for a Content-Length response.
	 */
	static final class Exchange {

		private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);

		private final byte[] request;

		private final OutputStream out;

		private final InputStream in;

		private final byte[] buffer = new byte[8192];

		Exchange(Socket socket, String path) throws IOException {
			this.request = ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
			this.out = socket.getOutputStream();
			this.in = socket.getInputStream();
		}

		String send() throws IOException {
			int end = exchange();
			return new String(this.buffer, this.bodyStart, end - this.bodyStart, StandardCharsets.US_ASCII);
		}

		void sendDiscarding() throws IOException {
			exchange();
		}

		private int bodyStart;

		private int exchange() throws IOException {
			this.out.write(this.request);
			int filled = 0;
			int headerEnd = -1;
			while (headerEnd < 0) {
				int read = this.in.read(this.buffer, filled, this.buffer.length - filled);
				if (read < 0) {
					throw new IOException("Connection closed");
				}
				filled += read;
				headerEnd = indexOfBlankLine(filled);
			}
			this.bodyStart = headerEnd + 4;
			int end = this.bodyStart + contentLength(headerEnd);
			while (filled < end) {
				int read = this.in.read(this.buffer, filled, this.buffer.length - filled);
				if (read < 0) {
					throw new IOException("Connection closed");
				}
				filled += read;
			}
			return end;
		}

		private int indexOfBlankLine(int filled) {
			for (int i = 0; i + 3 < filled; i++) {
				if (this.buffer[i] == '\r' && this.buffer[i + 1] == '\n' && this.buffer[i + 2] == '\r'
						&& this.buffer[i + 3] == '\n') {
					return i;
				}
			}
			return -1;
		}

		private int contentLength(int headerEnd) {
			outer: for (int i = 0; i + CONTENT_LENGTH.length < headerEnd; i++) {
				for (int j = 0; j < CONTENT_LENGTH.length; j++) {
					if (Character.toLowerCase(this.buffer[i + j]) != CONTENT_LENGTH[j]) {
						continue outer;
					}
				}
				int value = 0;
				for (int k = i + CONTENT_LENGTH.length; k < headerEnd && this.buffer[k] != '\r'; k++) {
					if (this.buffer[k] >= '0' && this.buffer[k] <= '9') {
						value = value * 10 + (this.buffer[k] - '0');
					}
				}
				return value;
			}
			throw new IllegalStateException("No Content-Length");
		}

	}

}
