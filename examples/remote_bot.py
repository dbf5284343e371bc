"""A bot that plays at a kow server over the network, in plain Python: websockets and json.

It uses nothing of kow, to show that the protocol (docs/protocol.md) is small enough to
speak from any language. It opens a table on a `kow serve` server (or joins one by its
code), plays GAMES games, answering each turn with its lowest legal card (in a trump
choice or a vote, the suit it holds most of), prints one line per game and leaves. With
--log, it writes each game's log (the server sends it at the game's end) for kow verify.

    kow serve --listen 127.0.0.1:7412 &
    python examples/remote_bot.py 127.0.0.1:7412 --games 3 --seed 1 --log games.jsonl
"""

import argparse
import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

RANKS = "23456789TJQKA"


def choose(view):  # type: ignore[no-untyped-def]
    """Return an action of view["legal"]: the lowest card, or the suit held most."""
    legal = view["legal"]
    if view["phase"] != "play":
        return max(legal, key=lambda suit: sum(card[1] == suit for card in view["hand"]))
    cards = [a for a in legal if a != "knock"]
    return min(cards, key=lambda card: RANKS.index(card[0])) if cards else "knock"


async def play(args):  # type: ignore[no-untyped-def]
    """Sit at a table of the server at args.address, play args.games games, leave."""
    async with connect(f"ws://{args.address}/") as ws:
        if args.code:  # a seat at a table someone else opened (and starts)
            hello = {"type": "hello", "protocol": 1, "table": args.code, "name": args.name}
        else:  # a table of our own: the other seats get kow's bots
            rules = {"players": args.players}
            hello = {"type": "open", "protocol": 1, "name": args.name, "rules": rules}
            if args.seed is not None:
                hello["seed"] = args.seed
        await ws.send(json.dumps({**hello, "kind": "agent"}))
        welcome = json.loads(await ws.recv())
        if welcome["type"] != "welcome":
            sys.exit(f"refused: {welcome.get('message')}")
        seat, host = welcome["seat"], welcome["host"]
        print(f"seat {seat} at table {welcome['table']}", file=sys.stderr)
        if host:
            await ws.send(json.dumps({"type": "start"}))
        games, answer = 0, None
        async for text in ws:
            message = json.loads(text)
            if message["type"] == "turn":
                action = choose(message["view"])  # type: ignore[no-untyped-call]
                answer = {"type": "action", "turn": message["turn"], "action": action}
                await ws.send(json.dumps(answer))
            elif message["type"] == "error":
                if message["code"] == "too-fast" and answer:  # wait, answer again
                    await asyncio.sleep(0.1)
                    await ws.send(json.dumps(answer))
                else:
                    print(f"error {message['code']}: {message['message']}", file=sys.stderr)
            elif message["type"] == "game_over":
                games += 1
                log = message["log"]
                winner = log["result"]["winner"]
                name = log["players"][winner]["name"] if winner is not None else "nobody"
                rounds = log["result"]["rounds_played"]
                print(f"game {games}: {name} (seat {winner}) won in {rounds} rounds;"
                      f" wins by seat {message['wins']}")
                if args.log:
                    with open(args.log, "a", encoding="utf-8") as out:
                        out.write(json.dumps(log) + "\n")
                if games == args.games:
                    await ws.send(json.dumps({"type": "leave"}))
                    return
                if host:
                    await ws.send(json.dumps({"type": "start"}))
        sys.exit(f"the server closed the connection after {games} games")


def count(text, least=1):  # type: ignore[no-untyped-def]
    """Return text as a whole number of at least ``least`` (for argparse), digits 0-9 only."""
    if not (text.isascii() and text.isdigit()) or int(text) < least:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {least} or more")
    return int(text)


def main():  # type: ignore[no-untyped-def]
    """Read the command line and play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", help="the server's HOST:PORT")
    parser.add_argument("--code", help="join this table (else open one: kow serve)")
    parser.add_argument("--name", default="LowBot")
    parser.add_argument("--games", type=count, default=3)
    parser.add_argument("--players", type=count, default=4)
    parser.add_argument("--seed", type=lambda t: count(t, 0), help="the first game's seed")  # type: ignore[no-untyped-call]
    parser.add_argument("--log", help="append each game's log to this file")
    try:
        asyncio.run(play(parser.parse_args()))  # type: ignore[no-untyped-call]
    except (OSError, asyncio.TimeoutError, WebSocketException) as err:
        sys.exit(f"no kow server at {sys.argv[1]}, or it failed: {err}")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()  # type: ignore[no-untyped-call]
