"""Support chat: customers (members and guests) talk to operator agents in real time.

The socket.io server (:mod:`pao.support.socket`) shares the ASGI app with the API; messages are
stored by :mod:`pao.support.service` and delivered to socket.io rooms after the request commits.
"""
