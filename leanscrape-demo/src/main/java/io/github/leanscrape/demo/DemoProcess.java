package io.github.leanscrape.demo;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo application in a JVM of its own, started from this JVM's class path with the
 * given JVM options and application arguments, on a free port of the loopback interface.
 * Its standard output and error go to a file.
 * <p>
 * A child JVM rather than an application context in this one: its heap limit, its garbage
 * collector and its out-of-memory errors are its own, as in a deployed application, and
 * the load that this JVM generates does not share its heap.
 *
 * @author leanscrape
 */
public final class DemoProcess implements AutoCloseable {

	private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

	private static final int OUTPUT_TAIL_CHARS = 4000;

	private final Process process;

	private final Path output;

	private final int port;

	private DemoProcess(Process process, Path output, int port) {
		this.process = process;
		this.output = output;
		this.port = port;
	}

	/**
	 * Start the demo application and wait until it answers {@code GET /hello}.
	 * @param jvmOptions options of the child JVM, {@code -Xmx512m} for example
	 * @param arguments application arguments, {@code --demo.series=100000} for example
	 * @param output the file that receives the child's standard output and error
	 * @param startupTimeout how long the application may take to answer
	 * @return the running application; close it to stop it
	 * @throws IOException if the process cannot be started
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static DemoProcess start(List<String> jvmOptions, List<String> arguments, Path output,
			Duration startupTimeout) throws IOException, InterruptedException {
		return start(jvmOptions, List.of(), arguments, output, startupTimeout);
	}

	/**
	 * Start the demo application with more on its class path, ahead of this JVM's, and
	 * wait until it answers {@code GET /hello}.
	 * @param jvmOptions options of the child JVM
	 * @param classPathFirst directories or jars placed before this JVM's class path, the
	 * output of ahead-of-time processing for example
	 * @param arguments application arguments
	 * @param output the file that receives the child's standard output and error
	 * @param startupTimeout how long the application may take to answer
	 * @return the running application; close it to stop it
	 * @throws IOException if the process cannot be started
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static DemoProcess start(List<String> jvmOptions, List<Path> classPathFirst, List<String> arguments,
			Path output, Duration startupTimeout) throws IOException, InterruptedException {
		int port = freePort();
		List<String> command = new ArrayList<>();
		command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvmOptions);
		command.add("-cp");
		StringBuilder classPath = new StringBuilder();
		for (Path entry : classPathFirst) {
			classPath.append(entry.toAbsolutePath()).append(File.pathSeparatorChar);
		}
		command.add(classPath.append(System.getProperty("java.class.path")).toString());
		command.add(DemoApplication.class.getName());
		command.add("--server.port=" + port);
		command.add("--server.address=127.0.0.1");
		command.addAll(arguments);
		Files.createDirectories(output.toAbsolutePath().getParent());
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
		DemoProcess demo = new DemoProcess(process, output, port);
		try {
			process.getOutputStream().close();
			demo.awaitAnswer(startupTimeout);
			return demo;
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			demo.close();
			throw ex;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private void awaitAnswer(Duration timeout) throws InterruptedException {
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(2))
			.build();
		HttpRequest hello = HttpRequest.newBuilder(uri("/hello")).timeout(Duration.ofSeconds(5)).build();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(
						"The demo application exited with " + this.process.exitValue() + ":\n" + outputTail());
			}
			try {
				if (client.send(hello, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
					return;
				}
			}
			catch (ConnectException ex) {
				// Not listening yet.
			}
			catch (IOException ex) {
				// Listening but not answering yet.
			}
			Thread.sleep(POLL_INTERVAL.toMillis());
		}
		throw new IllegalStateException("The demo application did not answer within " + timeout + ":\n" + outputTail());
	}

	/**
	 * Return the port the application listens on, on {@code 127.0.0.1}.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Return the address of a path of the application.
	 * @param pathAndQuery the path, with its query if any
	 * @return the address
	 */
	public URI uri(String pathAndQuery) {
		return URI.create("http://127.0.0.1:" + this.port + pathAndQuery);
	}

	/**
	 * Return whether the process still runs.
	 * @return {@code true} while it runs
	 */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Return the process.
	 * @return the process
	 */
	public Process process() {
		return this.process;
	}

	/**
	 * Return everything the application has printed so far.
	 * @return its standard output and error
	 */
	public String output() {
		try {
			return Files.readString(this.output, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(cannot read " + this.output + ": " + ex + ")";
		}
	}

	/**
	 * Return the end of what the application has printed so far.
	 * @return the last few thousand characters of its output
	 */
	public String outputTail() {
		String all = output();
		return (all.length() > OUTPUT_TAIL_CHARS) ? all.substring(all.length() - OUTPUT_TAIL_CHARS) : all;
	}

	/**
	 * Stop the application: ask it to stop, and kill it if it does not within a few
	 * seconds.
	 */
	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

}
