# navarch in a container: a static binary on a minimal base, run as a non-root user, its
# database in the volume /data. Configuration by file (/data/navarch.json by default) and
# environment (NAVARCH_IMAP_PASSWORD, NAVARCH_SMTP_PASSWORD). See docs/deploy/README.md.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /navarch ./cmd/navarch && mkdir /data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /navarch /usr/local/bin/navarch
# /data belongs to nonroot (uid 65532), so that a new named volume, which takes the image
# directory's owner, is writable by the daemon.
COPY --from=build --chown=65532:65532 /data /data
USER nonroot:nonroot
WORKDIR /data
VOLUME /data
# navarch health fails when the daemon's heartbeat (DATABASE.alive, about once a minute) is
# old, or its mailbox (IMAP) or sending (SMTP) has failed for longer than -failing, saying
# which and why (docs/deploy/README.md, Health).
HEALTHCHECK --interval=1m --timeout=20s --start-period=2m \
	CMD ["/usr/local/bin/navarch", "health", "-config", "/data/navarch.json", "-failing", "10m"]
ENTRYPOINT ["/usr/local/bin/navarch"]
CMD ["serve", "-config", "/data/navarch.json"]
